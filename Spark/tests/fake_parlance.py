#!/usr/bin/env python3
"""A stand-in for the ``parlance`` binary in the Spark tests.

It runs the real binary (``PARLANCE_SPARK_TEST_REAL``) with its arguments, except as
``PARLANCE_SPARK_TEST_MODE`` says:

- ``kill-once``: the first process that creates the folder ``PARLANCE_SPARK_TEST_MARK``
  passes on ``PARLANCE_SPARK_TEST_AFTER`` records of the real output and is then killed
  (SIGKILL), as a process lost in the middle of its partition would be; every later
  process, the retried attempt among them, runs normally;
- ``fail``: every process writes half a record and exits with status 3.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def main() -> None:
    """Runs the real binary, or fails as the mode says."""
    real = os.environ["PARLANCE_SPARK_TEST_REAL"]
    mode = os.environ.get("PARLANCE_SPARK_TEST_MODE", "")
    arguments = [real] + sys.argv[1:]
    if mode == "fail":
        sys.stdout.write('{"id": "half a rec')
        sys.stdout.flush()
        sys.exit(3)
    if mode == "kill-once":
        try:
            os.mkdir(os.environ["PARLANCE_SPARK_TEST_MARK"])
        except FileExistsError:
            pass
        else:
            after = int(os.environ.get("PARLANCE_SPARK_TEST_AFTER", "100"))
            child = subprocess.Popen(arguments, stdout=subprocess.PIPE)
            assert child.stdout is not None
            for count, line in enumerate(child.stdout):
                if count == after:
                    break
                sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
            child.kill()
            os.kill(os.getpid(), signal.SIGKILL)
    os.execv(real, arguments)


if __name__ == "__main__":
    main()
