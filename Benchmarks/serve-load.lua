-- wrk script for Benchmarks/serve-load.sh and serve-soak.sh: POSTs the request bodies of the
-- file given after "--" (one JSON record a line) in turn, each thread from its own start.
local bodies = {}
local next_body = 0

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  next_body = math.random(#bodies)
end

function request()
  next_body = next_body % #bodies + 1
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, bodies[next_body])
end
