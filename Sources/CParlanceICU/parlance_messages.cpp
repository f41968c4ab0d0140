/* ICU MessageFormat with named arguments (plurals, selects, numbers, currencies). Only the
   C++ API takes named arguments, so this one file is C++; its interface is plain C. */
#include "parlance_icu.h"

#include <unicode/fmtable.h>
#include <unicode/locid.h>
#include <unicode/msgfmt.h>
#include <unicode/unistr.h>

#include <memory>
#include <vector>

using namespace icu;

/* The pattern compiled for the locale; on a syntax error the status is set and error_offset
   tells where. */
static std::unique_ptr<MessageFormat> compile(const uint16_t *pattern, int32_t pattern_length, const char *locale,
                                              int32_t *error_offset, UErrorCode &st) {
    UParseError parse_error;
    parse_error.offset = -1;
    UnicodeString text(reinterpret_cast<const UChar *>(pattern), pattern_length);
    std::unique_ptr<MessageFormat> format(new MessageFormat(text, Locale(locale), parse_error, st));
    if (error_offset) *error_offset = parse_error.offset;
    return format;
}

extern "C" int32_t pl_message_format(const uint16_t *pattern, int32_t pattern_length, const char *locale,
                                     const uint16_t *const *names, const int32_t *name_lengths,
                                     const int32_t *kinds, const double *numbers,
                                     const uint16_t *const *strings, const int32_t *string_lengths,
                                     int32_t count, uint16_t *out, int32_t capacity,
                                     int32_t *error_offset, int32_t *status) {
    UErrorCode st = U_ZERO_ERROR;
    std::unique_ptr<MessageFormat> format = compile(pattern, pattern_length, locale, error_offset, st);
    if (U_FAILURE(st)) {
        *status = st;
        return 0;
    }
    std::vector<UnicodeString> argument_names;
    std::vector<Formattable> arguments;
    argument_names.reserve(count);
    arguments.reserve(count);
    for (int32_t i = 0; i < count; i++) {
        argument_names.emplace_back(reinterpret_cast<const UChar *>(names[i]), name_lengths[i]);
        if (kinds[i] == PL_MESSAGE_NUMBER) {
            arguments.emplace_back(numbers[i]);
        } else {
            arguments.emplace_back(UnicodeString(reinterpret_cast<const UChar *>(strings[i]), string_lengths[i]));
        }
    }
    UnicodeString result;
    format->format(argument_names.data(), arguments.data(), count, result, st);
    if (U_FAILURE(st)) {
        *status = st;
        return 0;
    }
    int32_t length = result.extract(reinterpret_cast<UChar *>(out), capacity, st);
    *status = st;
    return length;
}

extern "C" int32_t pl_message_check(const uint16_t *pattern, int32_t pattern_length, const char *locale, int32_t *error_offset) {
    UErrorCode st = U_ZERO_ERROR;
    compile(pattern, pattern_length, locale, error_offset, st);
    return U_FAILURE(st) ? st : 0;
}
