/*
 * parlance_icu.h — the C face of Parlance's ICU layer.
 *
 * This header deliberately exposes no ICU type and includes no ICU header: Swift files
 * that import Foundation cannot also see ICU's headers (Foundation carries a private ICU
 * whose UErrorCode differs). Text crosses this boundary as UTF-16 (uint16_t) buffers,
 * errors as int32_t ICU status codes (> 0 is a failure; see pl_error_name).
 *
 * Functions that write into a caller buffer return the full length needed; when that is
 * larger than the capacity the buffer holds a truncated copy and *status is
 * PL_BUFFER_OVERFLOW, so the caller can retry with a larger buffer.
 */
#ifndef PARLANCE_ICU_H
#define PARLANCE_ICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ICU's U_BUFFER_OVERFLOW_ERROR, restated so callers need no ICU header. */
#define PL_BUFFER_OVERFLOW 15

/* The name of an ICU status code, e.g. "U_ILLEGAL_ARGUMENT_ERROR". */
const char *pl_error_name(int32_t status);

/* The ICU version, e.g. "72.1". */
void pl_icu_version(char out[32]);

/* ---- Locales ------------------------------------------------------------------ */
/* Canonical ICU locale id for a BCP 47 tag ("pt-BR" -> "pt_BR"). */
int32_t pl_locale_from_tag(const char *tag, char *out, int32_t capacity, int32_t *status);

/* ---- Word breaking -------------------------------------------------------------- */
typedef struct PLBreaker PLBreaker;
/* A word break iterator for a locale (dictionary segmentation for ja, zh, th, ...). */
PLBreaker *pl_breaker_open(const char *locale, int32_t *status);
/* An independent copy: break iterators are not thread-safe, clones are. */
PLBreaker *pl_breaker_clone(const PLBreaker *breaker, int32_t *status);
void pl_breaker_close(PLBreaker *breaker);
/*
 * Segments text (UTF-16, length code units). Writes segment i as
 * bounds[2i] = start, bounds[2i+1] = end (UTF-16 offsets) and rule_status[i] (ICU's
 * word rule status: 0-99 none, 100-199 number, 200-299 letter, 300-399 kana,
 * 400-499 ideographic). Returns the number of segments; capacity is in segments and
 * never needs to exceed length. The text must stay alive only during the call.
 */
int32_t pl_breaker_segment(PLBreaker *breaker, const uint16_t *text, int32_t length,
                           int32_t *bounds, int32_t *rule_status, int32_t capacity,
                           int32_t *status);

/* ---- Normalization -------------------------------------------------------------- */
/* NFKC with case folding (ICU's NFKC_Casefold). */
int32_t pl_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity,
                         int32_t *status);
/* NFC. */
int32_t pl_nfc(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity,
               int32_t *status);
/* A matching key: NFKC_Casefold, then decomposition, nonspacing marks removed, NFC. */
int32_t pl_fold_key(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity,
                    int32_t *status);

/* ---- Transliteration ------------------------------------------------------------ */
typedef struct PLTransliterator PLTransliterator;
/* Opens a transliterator by id, e.g. "Any-Latin; Latin-ASCII". */
PLTransliterator *pl_translit_open(const uint16_t *id, int32_t id_length, int32_t *status);
/* Opens a transliterator from ICU transform rules ("ph > f; v > b;"). On a syntax error the
   status is set and error_offset gives where in the rules it was found. */
PLTransliterator *pl_translit_open_rules(const uint16_t *id, int32_t id_length,
                                        const uint16_t *rules, int32_t rules_length,
                                        int32_t *error_line, int32_t *error_offset, int32_t *status);
PLTransliterator *pl_translit_clone(const PLTransliterator *t, int32_t *status);
void pl_translit_close(PLTransliterator *t);
/* Transliterates buffer[0..length) in place; returns the new length (see header note). */
int32_t pl_translit_apply(const PLTransliterator *t, uint16_t *buffer, int32_t length,
                          int32_t capacity, int32_t *status);

/* ---- Numbers -------------------------------------------------------------------- */
typedef struct PLNumberFormat PLNumberFormat;
enum { PL_NUMBER_DECIMAL = 0, PL_NUMBER_SPELLOUT = 1 };
PLNumberFormat *pl_numfmt_open(int32_t style, const char *locale, int32_t lenient, int32_t *status);
PLNumberFormat *pl_numfmt_clone(const PLNumberFormat *f, int32_t *status);
void pl_numfmt_close(PLNumberFormat *f);
/*
 * Parses a number at *position (UTF-16 offset, advanced past what was read) and writes
 * it as an ASCII decimal string ("1234.56") into out. Returns the decimal's length.
 */
int32_t pl_numfmt_parse_decimal(const PLNumberFormat *f, const uint16_t *text, int32_t length,
                                int32_t *position, char *out, int32_t capacity, int32_t *status);
/* Formats an integer (spell-out formats use the current rule set). */
int32_t pl_numfmt_format_int64(const PLNumberFormat *f, int64_t value, uint16_t *out,
                               int32_t capacity, int32_t *status);
/* Public rule set names of a rule-based format, separated by ';' (UTF-16). */
int32_t pl_numfmt_rule_sets(const PLNumberFormat *f, uint16_t *out, int32_t capacity, int32_t *status);
/* Selects a rule set by name, e.g. "%spellout-cardinal-feminine". */
void pl_numfmt_set_rule_set(PLNumberFormat *f, const uint16_t *name, int32_t length, int32_t *status);
enum { PL_SYMBOL_DECIMAL = 0, PL_SYMBOL_GROUPING = 1, PL_SYMBOL_MINUS = 2 };
int32_t pl_numfmt_symbol(const PLNumberFormat *f, int32_t which, uint16_t *out, int32_t capacity,
                         int32_t *status);

/* ---- Plural rules --------------------------------------------------------------- */
/* The plural keywords of a locale ("one;other"), ASCII. */
int32_t pl_plural_keywords(const char *locale, char *out, int32_t capacity, int32_t *status);
/* The plural keyword for a number ("one", "few", "other"), ASCII. */
int32_t pl_plural_select(const char *locale, double number, char *out, int32_t capacity, int32_t *status);

/* ---- Currencies ----------------------------------------------------------------- */
/* ISO 4217 codes of current, common currencies, separated by ';' (ASCII). */
int32_t pl_currency_codes(char *out, int32_t capacity, int32_t *status);
enum { PL_CURRENCY_SYMBOL = 0, PL_CURRENCY_LONG_NAME = 1, PL_CURRENCY_NARROW_SYMBOL = 2 };
/* A currency's display name in a locale ("€", "euro", "dólar estadounidense"). */
int32_t pl_currency_name(const char *code, const char *locale, int32_t style, uint16_t *out,
                         int32_t capacity, int32_t *status);
/* A currency's plural display name for a plural keyword ("euros", "francs suisses"). */
int32_t pl_currency_plural_name(const char *code, const char *locale, const char *keyword,
                                uint16_t *out, int32_t capacity, int32_t *status);
/* The currency of a locale's region ("es_MX" -> "MXN"); 0 when the region has none. */
int32_t pl_currency_for_locale(const char *locale, char out[4], int32_t *status);

/* ---- Dates ---------------------------------------------------------------------- */
enum {
    PL_DATE_MONTHS = 0, PL_DATE_SHORT_MONTHS = 1, PL_DATE_WEEKDAYS = 2, PL_DATE_SHORT_WEEKDAYS = 3,
    PL_DATE_STANDALONE_MONTHS = 4, PL_DATE_STANDALONE_SHORT_MONTHS = 5,
    PL_DATE_STANDALONE_WEEKDAYS = 6, PL_DATE_STANDALONE_SHORT_WEEKDAYS = 7
};
/* How many symbols of a kind a locale's Gregorian calendar has (weekdays count a leading empty one). */
int32_t pl_date_symbol_count(const char *locale, int32_t kind, int32_t *status);
int32_t pl_date_symbol(const char *locale, int32_t kind, int32_t index, uint16_t *out,
                       int32_t capacity, int32_t *status);
/* The locale's short date pattern, e.g. "dd/MM/y". */
int32_t pl_date_short_pattern(const char *locale, uint16_t *out, int32_t capacity, int32_t *status);
/* ICU's URelativeDateTimeUnit values. */
enum {
    PL_REL_YEAR = 0, PL_REL_QUARTER = 1, PL_REL_MONTH = 2, PL_REL_WEEK = 3, PL_REL_DAY = 4,
    PL_REL_HOUR = 5, PL_REL_MINUTE = 6, PL_REL_SECOND = 7, PL_REL_SUNDAY = 8, PL_REL_MONDAY = 9,
    PL_REL_TUESDAY = 10, PL_REL_WEDNESDAY = 11, PL_REL_THURSDAY = 12, PL_REL_FRIDAY = 13,
    PL_REL_SATURDAY = 14
};
/* A relative date phrase: (-1, DAY) -> "yesterday", (-1, MONDAY) -> "last Monday". */
int32_t pl_relative_date(const char *locale, double offset, int32_t unit, uint16_t *out,
                         int32_t capacity, int32_t *status);

/* ---- Measure units -------------------------------------------------------------- */
enum { PL_UNIT_WIDTH_FULL = 0, PL_UNIT_WIDTH_SHORT = 1, PL_UNIT_WIDTH_NARROW = 2 };
/* Formats value with a unit, e.g. ("length-kilometer", FULL, 5) -> "5 kilometers". */
int32_t pl_format_measure(const char *locale, const char *unit, int32_t width, double value,
                          uint16_t *out, int32_t capacity, int32_t *status);

/* ---- Lists ---------------------------------------------------------------------- */
/* Formats a list of count strings as a conjunction ("A, B and C"). */
int32_t pl_list_format(const char *locale, const uint16_t *const *items, const int32_t *lengths,
                       int32_t count, uint16_t *out, int32_t capacity, int32_t *status);

/* ---- Confusables ---------------------------------------------------------------- */
/* The UTS #39 confusable skeleton of a string (what a spoof checker compares). */
int32_t pl_confusable_skeleton(const uint16_t *text, int32_t length, uint16_t *out,
                               int32_t capacity, int32_t *status);
/* Whether text mixes scripts in a way a spoof checker flags (restriction level). */
int32_t pl_is_suspicious(const uint16_t *text, int32_t length, int32_t *status);

/* ---- Messages ---- */
/* Argument kinds for pl_message_format. */
#define PL_MESSAGE_STRING 0
#define PL_MESSAGE_NUMBER 1
/* Formats an ICU MessageFormat pattern ("{count, plural, one {# soup} other {# soups}}") with
   named arguments: names[i] is a string (strings[i]) or a number (numbers[i]) by kinds[i].
   On a pattern error the status is set and error_offset tells where. Returns the length. */
/* Compiles a MessageFormat pattern without formatting it: 0 when ICU reads it, otherwise the
   ICU status, with error_offset telling where. */
int32_t pl_message_check(const uint16_t *pattern, int32_t pattern_length, const char *locale, int32_t *error_offset);

int32_t pl_message_format(const uint16_t *pattern, int32_t pattern_length, const char *locale,
                          const uint16_t *const *names, const int32_t *name_lengths,
                          const int32_t *kinds, const double *numbers,
                          const uint16_t *const *strings, const int32_t *string_lengths,
                          int32_t count, uint16_t *out, int32_t capacity,
                          int32_t *error_offset, int32_t *status);

#ifdef __cplusplus
}
#endif
#endif
