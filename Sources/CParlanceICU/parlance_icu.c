/* parlance_icu.c — the only C that includes ICU's headers. See include/parlance_icu.h. */
#include "parlance_icu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/ucurr.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/ulistformatter.h>
#include <unicode/uloc.h>
#include <unicode/unorm2.h>
#include <unicode/unum.h>
#include <unicode/unumberformatter.h>
#include <unicode/upluralrules.h>
#include <unicode/ureldatefmt.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/uversion.h>

_Static_assert(PL_BUFFER_OVERFLOW == U_BUFFER_OVERFLOW_ERROR, "buffer overflow code");
_Static_assert(PL_REL_SATURDAY == UDAT_REL_UNIT_SATURDAY, "relative units");
_Static_assert(PL_REL_DAY == UDAT_REL_UNIT_DAY, "relative units");

#define STATUS(s) ((UErrorCode *)(s))

const char *pl_error_name(int32_t status) { return u_errorName((UErrorCode)status); }

void pl_icu_version(char out[32]) {
    UVersionInfo v;
    u_getVersion(v);
    u_versionToString(v, out);
}

int32_t pl_locale_from_tag(const char *tag, char *out, int32_t capacity, int32_t *status) {
    int32_t parsed = 0;
    return uloc_forLanguageTag(tag, out, capacity, &parsed, STATUS(status));
}

/* ---- Word breaking ---- */
struct PLBreaker { UBreakIterator *it; };

PLBreaker *pl_breaker_open(const char *locale, int32_t *status) {
    UBreakIterator *it = ubrk_open(UBRK_WORD, locale, NULL, 0, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return NULL;
    PLBreaker *b = (PLBreaker *)malloc(sizeof(PLBreaker));
    b->it = it;
    return b;
}

PLBreaker *pl_breaker_clone(const PLBreaker *breaker, int32_t *status) {
    UBreakIterator *it = ubrk_clone(breaker->it, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return NULL;
    PLBreaker *b = (PLBreaker *)malloc(sizeof(PLBreaker));
    b->it = it;
    return b;
}

void pl_breaker_close(PLBreaker *breaker) {
    if (!breaker) return;
    ubrk_close(breaker->it);
    free(breaker);
}

int32_t pl_breaker_segment(PLBreaker *breaker, const uint16_t *text, int32_t length,
                           int32_t *bounds, int32_t *rule_status, int32_t capacity,
                           int32_t *status) {
    ubrk_setText(breaker->it, (const UChar *)text, length, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t count = 0;
    int32_t start = ubrk_first(breaker->it);
    for (int32_t end = ubrk_next(breaker->it); end != UBRK_DONE; end = ubrk_next(breaker->it)) {
        if (count < capacity) {
            bounds[2 * count] = start;
            bounds[2 * count + 1] = end;
            rule_status[count] = ubrk_getRuleStatus(breaker->it);
        }
        count++;
        start = end;
    }
    /* Detach the text: the caller's buffer is not valid after the call. */
    ubrk_setText(breaker->it, NULL, 0, STATUS(status));
    if (count > capacity) *status = U_BUFFER_OVERFLOW_ERROR;
    return count;
}

/* ---- Normalization ---- */
int32_t pl_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity,
                         int32_t *status) {
    const UNormalizer2 *n = unorm2_getNFKCCasefoldInstance(STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    return unorm2_normalize(n, (const UChar *)text, length, (UChar *)out, capacity, STATUS(status));
}

int32_t pl_nfc(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity, int32_t *status) {
    const UNormalizer2 *n = unorm2_getNFCInstance(STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    return unorm2_normalize(n, (const UChar *)text, length, (UChar *)out, capacity, STATUS(status));
}

int32_t pl_fold_key(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity,
                    int32_t *status) {
    UErrorCode *st = STATUS(status);
    const UNormalizer2 *fold = unorm2_getNFKCCasefoldInstance(st);
    const UNormalizer2 *nfd = unorm2_getNFDInstance(st);
    const UNormalizer2 *nfc = unorm2_getNFCInstance(st);
    if (U_FAILURE(*st)) return 0;
    /* Folding can grow text (ß -> ss); decomposition more so. */
    int32_t cap1 = length * 4 + 16;
    UChar *folded = (UChar *)malloc(sizeof(UChar) * cap1);
    UChar *decomposed = (UChar *)malloc(sizeof(UChar) * cap1 * 3);
    int32_t n1 = unorm2_normalize(fold, (const UChar *)text, length, folded, cap1, st);
    int32_t n2 = U_SUCCESS(*st) ? unorm2_normalize(nfd, folded, n1, decomposed, cap1 * 3, st) : 0;
    int32_t kept = 0;
    if (U_SUCCESS(*st)) {
        /* Marks are diacritics to fold only on Latin, Greek and Cyrillic letters; elsewhere
           (Japanese dakuten, Indic vowel signs) they are part of the letter. */
        UBool strip = 0;
        for (int32_t i = 0; i < n2;) {
            UChar32 c;
            int32_t at = i;
            U16_NEXT(decomposed, i, n2, c);
            if (u_charType(c) == U_NON_SPACING_MARK) {
                if (strip) continue;
            } else {
                UErrorCode script_status = U_ZERO_ERROR;
                UScriptCode script = uscript_getScript(c, &script_status);
                strip = script == USCRIPT_LATIN || script == USCRIPT_GREEK || script == USCRIPT_CYRILLIC ||
                        script == USCRIPT_COMMON || script == USCRIPT_INHERITED;
            }
            for (int32_t k = at; k < i; k++) decomposed[kept++] = decomposed[k];
        }
    }
    int32_t result = U_SUCCESS(*st) ? unorm2_normalize(nfc, decomposed, kept, (UChar *)out, capacity, st) : 0;
    free(folded);
    free(decomposed);
    return result;
}

/* ---- Transliteration ---- */
struct PLTransliterator { UTransliterator *t; };

PLTransliterator *pl_translit_open(const uint16_t *id, int32_t id_length, int32_t *status) {
    UTransliterator *t = utrans_openU((const UChar *)id, id_length, UTRANS_FORWARD, NULL, 0, NULL,
                                      STATUS(status));
    if (U_FAILURE(*STATUS(status))) return NULL;
    PLTransliterator *p = (PLTransliterator *)malloc(sizeof(PLTransliterator));
    p->t = t;
    return p;
}

PLTransliterator *pl_translit_open_rules(const uint16_t *id, int32_t id_length,
                                        const uint16_t *rules, int32_t rules_length,
                                        int32_t *error_line, int32_t *error_offset, int32_t *status) {
    UParseError parse_error;
    memset(&parse_error, 0, sizeof(parse_error));
    UTransliterator *t = utrans_openU((const UChar *)id, id_length, UTRANS_FORWARD,
                                      (const UChar *)rules, rules_length, &parse_error, STATUS(status));
    if (error_line) *error_line = parse_error.line;
    if (error_offset) *error_offset = parse_error.offset;
    if (U_FAILURE(*STATUS(status))) return NULL;
    PLTransliterator *p = (PLTransliterator *)malloc(sizeof(PLTransliterator));
    p->t = t;
    return p;
}

PLTransliterator *pl_translit_clone(const PLTransliterator *t, int32_t *status) {
    UTransliterator *c = utrans_clone(t->t, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return NULL;
    PLTransliterator *p = (PLTransliterator *)malloc(sizeof(PLTransliterator));
    p->t = c;
    return p;
}

void pl_translit_close(PLTransliterator *t) {
    if (!t) return;
    utrans_close(t->t);
    free(t);
}

int32_t pl_translit_apply(const PLTransliterator *t, uint16_t *buffer, int32_t length,
                          int32_t capacity, int32_t *status) {
    int32_t text_length = length;
    int32_t limit = length;
    utrans_transUChars(t->t, (UChar *)buffer, &text_length, capacity, 0, &limit, STATUS(status));
    return text_length;
}

/* ---- Numbers ---- */
struct PLNumberFormat { UNumberFormat *f; };

PLNumberFormat *pl_numfmt_open(int32_t style, const char *locale, int32_t lenient, int32_t *status) {
    UNumberFormatStyle s = style == PL_NUMBER_SPELLOUT ? UNUM_SPELLOUT : UNUM_DECIMAL;
    UNumberFormat *f = unum_open(s, NULL, 0, locale, NULL, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return NULL;
    if (lenient) unum_setAttribute(f, UNUM_LENIENT_PARSE, 1);
    PLNumberFormat *p = (PLNumberFormat *)malloc(sizeof(PLNumberFormat));
    p->f = f;
    return p;
}

PLNumberFormat *pl_numfmt_clone(const PLNumberFormat *f, int32_t *status) {
    UNumberFormat *c = unum_clone(f->f, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return NULL;
    PLNumberFormat *p = (PLNumberFormat *)malloc(sizeof(PLNumberFormat));
    p->f = c;
    return p;
}

void pl_numfmt_close(PLNumberFormat *f) {
    if (!f) return;
    unum_close(f->f);
    free(f);
}

int32_t pl_numfmt_parse_decimal(const PLNumberFormat *f, const uint16_t *text, int32_t length,
                                int32_t *position, char *out, int32_t capacity, int32_t *status) {
    return unum_parseDecimal(f->f, (const UChar *)text, length, position, out, capacity, STATUS(status));
}

int32_t pl_numfmt_format_int64(const PLNumberFormat *f, int64_t value, uint16_t *out,
                               int32_t capacity, int32_t *status) {
    return unum_formatInt64(f->f, value, (UChar *)out, capacity, NULL, STATUS(status));
}

int32_t pl_numfmt_rule_sets(const PLNumberFormat *f, uint16_t *out, int32_t capacity, int32_t *status) {
    return unum_getTextAttribute(f->f, UNUM_PUBLIC_RULESETS, (UChar *)out, capacity, STATUS(status));
}

void pl_numfmt_set_rule_set(PLNumberFormat *f, const uint16_t *name, int32_t length, int32_t *status) {
    unum_setTextAttribute(f->f, UNUM_DEFAULT_RULESET, (const UChar *)name, length, STATUS(status));
}

int32_t pl_numfmt_symbol(const PLNumberFormat *f, int32_t which, uint16_t *out, int32_t capacity,
                         int32_t *status) {
    UNumberFormatSymbol sym = which == PL_SYMBOL_GROUPING ? UNUM_GROUPING_SEPARATOR_SYMBOL
                            : which == PL_SYMBOL_MINUS ? UNUM_MINUS_SIGN_SYMBOL
                            : UNUM_DECIMAL_SEPARATOR_SYMBOL;
    return unum_getSymbol(f->f, sym, (UChar *)out, capacity, STATUS(status));
}

/* ---- Plural rules ---- */
int32_t pl_plural_keywords(const char *locale, char *out, int32_t capacity, int32_t *status) {
    UPluralRules *rules = uplrules_open(locale, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    UEnumeration *e = uplrules_getKeywords(rules, STATUS(status));
    int32_t written = 0;
    if (U_SUCCESS(*STATUS(status))) {
        int32_t len = 0;
        const char *kw;
        while ((kw = uenum_next(e, &len, STATUS(status))) != NULL && U_SUCCESS(*STATUS(status))) {
            int32_t need = len + (written ? 1 : 0);
            if (written + need < capacity) {
                if (written) out[written] = ';';
                memcpy(out + written + (written ? 1 : 0), kw, (size_t)len);
            }
            written += need;
        }
        uenum_close(e);
    }
    uplrules_close(rules);
    if (written < capacity) out[written] = 0; else *status = U_BUFFER_OVERFLOW_ERROR;
    return written;
}

int32_t pl_plural_select(const char *locale, double number, char *out, int32_t capacity, int32_t *status) {
    UPluralRules *rules = uplrules_open(locale, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    UChar buffer[32];
    int32_t n = uplrules_select(rules, number, buffer, 32, STATUS(status));
    uplrules_close(rules);
    if (U_FAILURE(*STATUS(status))) return 0;
    if (n >= capacity) { *status = U_BUFFER_OVERFLOW_ERROR; return n; }
    u_UCharsToChars(buffer, out, n);
    out[n] = 0;
    return n;
}

/* ---- Currencies ---- */
int32_t pl_currency_codes(char *out, int32_t capacity, int32_t *status) {
    UEnumeration *e = ucurr_openISOCurrencies(UCURR_COMMON | UCURR_NON_DEPRECATED, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t written = 0, len = 0;
    const char *code;
    while ((code = uenum_next(e, &len, STATUS(status))) != NULL && U_SUCCESS(*STATUS(status))) {
        int32_t need = len + (written ? 1 : 0);
        if (written + need < capacity) {
            if (written) out[written] = ';';
            memcpy(out + written + (written ? 1 : 0), code, (size_t)len);
        }
        written += need;
    }
    uenum_close(e);
    if (written < capacity) out[written] = 0; else *status = U_BUFFER_OVERFLOW_ERROR;
    return written;
}

static int32_t copy_uchars(const UChar *s, int32_t n, uint16_t *out, int32_t capacity, int32_t *status) {
    if (n <= capacity) memcpy(out, s, sizeof(UChar) * (size_t)n);
    else *status = U_BUFFER_OVERFLOW_ERROR;
    return n;
}

int32_t pl_currency_name(const char *code, const char *locale, int32_t style, uint16_t *out,
                         int32_t capacity, int32_t *status) {
    UChar iso[4];
    u_charsToUChars(code, iso, 4);
    UBool is_choice = 0;
    int32_t n = 0;
    UCurrNameStyle s = style == PL_CURRENCY_LONG_NAME ? UCURR_LONG_NAME
                     : style == PL_CURRENCY_NARROW_SYMBOL ? UCURR_NARROW_SYMBOL_NAME
                     : UCURR_SYMBOL_NAME;
    const UChar *name = ucurr_getName(iso, locale, s, &is_choice, &n, STATUS(status));
    if (U_FAILURE(*STATUS(status)) || !name) return 0;
    return copy_uchars(name, n, out, capacity, status);
}

int32_t pl_currency_plural_name(const char *code, const char *locale, const char *keyword,
                                uint16_t *out, int32_t capacity, int32_t *status) {
    UChar iso[4];
    u_charsToUChars(code, iso, 4);
    UBool is_choice = 0;
    int32_t n = 0;
    const UChar *name = ucurr_getPluralName(iso, locale, &is_choice, keyword, &n, STATUS(status));
    if (U_FAILURE(*STATUS(status)) || !name) return 0;
    return copy_uchars(name, n, out, capacity, status);
}

int32_t pl_currency_for_locale(const char *locale, char out[4], int32_t *status) {
    UChar buffer[4];
    int32_t n = ucurr_forLocale(locale, buffer, 4, STATUS(status));
    if (U_FAILURE(*STATUS(status)) || n != 3) { out[0] = 0; return 0; }
    u_UCharsToChars(buffer, out, 3);
    out[3] = 0;
    return 3;
}

/* ---- Dates ---- */
static UDateFormatSymbolType symbol_type(int32_t kind) {
    switch (kind) {
    case PL_DATE_SHORT_MONTHS: return UDAT_SHORT_MONTHS;
    case PL_DATE_WEEKDAYS: return UDAT_WEEKDAYS;
    case PL_DATE_SHORT_WEEKDAYS: return UDAT_SHORT_WEEKDAYS;
    case PL_DATE_STANDALONE_MONTHS: return UDAT_STANDALONE_MONTHS;
    case PL_DATE_STANDALONE_SHORT_MONTHS: return UDAT_STANDALONE_SHORT_MONTHS;
    case PL_DATE_STANDALONE_WEEKDAYS: return UDAT_STANDALONE_WEEKDAYS;
    case PL_DATE_STANDALONE_SHORT_WEEKDAYS: return UDAT_STANDALONE_SHORT_WEEKDAYS;
    default: return UDAT_MONTHS;
    }
}

static UDateFormat *open_gregorian(const char *locale, UErrorCode *st) {
    char id[ULOC_FULLNAME_CAPACITY];
    uloc_setKeywordValue("calendar", "gregorian", strncpy(id, locale, sizeof id - 32), sizeof id, st);
    return udat_open(UDAT_SHORT, UDAT_SHORT, id, NULL, 0, NULL, 0, st);
}

int32_t pl_date_symbol_count(const char *locale, int32_t kind, int32_t *status) {
    UDateFormat *f = open_gregorian(locale, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t n = udat_countSymbols(f, symbol_type(kind));
    udat_close(f);
    return n;
}

int32_t pl_date_symbol(const char *locale, int32_t kind, int32_t index, uint16_t *out,
                       int32_t capacity, int32_t *status) {
    UDateFormat *f = open_gregorian(locale, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t n = udat_getSymbols(f, symbol_type(kind), index, (UChar *)out, capacity, STATUS(status));
    udat_close(f);
    return n;
}

int32_t pl_date_short_pattern(const char *locale, uint16_t *out, int32_t capacity, int32_t *status) {
    UDateFormat *f = udat_open(UDAT_NONE, UDAT_SHORT, locale, NULL, 0, NULL, 0, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t n = udat_toPattern(f, 0, (UChar *)out, capacity, STATUS(status));
    udat_close(f);
    return n;
}

int32_t pl_relative_date(const char *locale, double offset, int32_t unit, uint16_t *out,
                         int32_t capacity, int32_t *status) {
    URelativeDateTimeFormatter *f = ureldatefmt_open(locale, NULL, UDAT_STYLE_LONG,
                                                     UDISPCTX_CAPITALIZATION_NONE, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t n = ureldatefmt_format(f, offset, (URelativeDateTimeUnit)unit, (UChar *)out, capacity,
                                   STATUS(status));
    ureldatefmt_close(f);
    return n;
}

/* ---- Measure units ---- */
int32_t pl_format_measure(const char *locale, const char *unit, int32_t width, double value,
                          uint16_t *out, int32_t capacity, int32_t *status) {
    char skeleton[160];
    const char *w = width == PL_UNIT_WIDTH_FULL ? "unit-width-full-name"
                  : width == PL_UNIT_WIDTH_NARROW ? "unit-width-narrow" : "unit-width-short";
    snprintf(skeleton, sizeof skeleton, "measure-unit/%s %s", unit, w);
    UChar uskeleton[160];
    u_charsToUChars(skeleton, uskeleton, (int32_t)strlen(skeleton) + 1);
    UNumberFormatter *f = unumf_openForSkeletonAndLocale(uskeleton, -1, locale, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    UFormattedNumber *r = unumf_openResult(STATUS(status));
    unumf_formatDouble(f, value, r, STATUS(status));
    int32_t n = U_SUCCESS(*STATUS(status)) ? unumf_resultToString(r, (UChar *)out, capacity, STATUS(status)) : 0;
    unumf_closeResult(r);
    unumf_close(f);
    return n;
}

/* ---- Lists ---- */
int32_t pl_list_format(const char *locale, const uint16_t *const *items, const int32_t *lengths,
                       int32_t count, uint16_t *out, int32_t capacity, int32_t *status) {
    UListFormatter *f = ulistfmt_open(locale, STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t n = ulistfmt_format(f, (const UChar *const *)items, lengths, count, (UChar *)out, capacity,
                                STATUS(status));
    ulistfmt_close(f);
    return n;
}

/* ---- Confusables ---- */
int32_t pl_confusable_skeleton(const uint16_t *text, int32_t length, uint16_t *out,
                               int32_t capacity, int32_t *status) {
    USpoofChecker *sc = uspoof_open(STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    int32_t n = uspoof_getSkeleton(sc, USPOOF_CONFUSABLE, (const UChar *)text, length, (UChar *)out,
                                   capacity, STATUS(status));
    uspoof_close(sc);
    return n;
}

int32_t pl_is_suspicious(const uint16_t *text, int32_t length, int32_t *status) {
    USpoofChecker *sc = uspoof_open(STATUS(status));
    if (U_FAILURE(*STATUS(status))) return 0;
    uspoof_setChecks(sc, USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS | USPOOF_INVISIBLE, STATUS(status));
    uspoof_setRestrictionLevel(sc, USPOOF_MODERATELY_RESTRICTIVE);
    int32_t result = uspoof_check2(sc, (const UChar *)text, length, NULL, STATUS(status));
    uspoof_close(sc);
    return U_SUCCESS(*STATUS(status)) && result != 0;
}
