/*
 * The check macros the C tests share. Each test file includes this once, calls CHECK and
 * CHECK_STATUS from its tests, and ends main with `return check_summary();`, which prints the
 * plain closing line "N passed, N failed" and gives the exit status (non-zero on any failure).
 * A failed check prints its file, line, function and condition (and for a status, the status
 * got, the one wanted and the last error message) to stderr, and the test goes on.
 */
#ifndef DBCORE_TESTS_CHECK_H
#define DBCORE_TESTS_CHECK_H

#include "dbcore.h"

#include <stdio.h>
#include <stdlib.h>

static int passed;
static int failed;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) {                                                                 \
            passed++;                                                               \
        } else {                                                                    \
            failed++;                                                               \
            fprintf(stderr, "%s:%d: %s: CHECK failed: %s\n", __FILE__, __LINE__,    \
                    __func__, #cond);                                               \
        }                                                                           \
    } while (0)

#define CHECK_STATUS(call, want)                                                    \
    do {                                                                            \
        DbcoreStatus got_ = (call);                                                 \
        if (got_ == (want)) {                                                       \
            passed++;                                                               \
        } else {                                                                    \
            char msg_[512];                                                         \
            dbcore_last_error_message(msg_, sizeof msg_);                           \
            failed++;                                                               \
            fprintf(stderr, "%s:%d: %s: %s gave %s, want %s (%s)\n", __FILE__,       \
                    __LINE__, __func__, #call, dbcore_status_name(got_),            \
                    dbcore_status_name(want), msg_);                                \
        }                                                                           \
    } while (0)

/* The whole file at `path`, NUL-terminated (free it), or NULL if it cannot be read. */
static inline char *check_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = (char *)malloc((size_t)n + 1);
        if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
            text[n] = 0;
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

/* Print the closing line and return the exit status for main. */
static inline int check_summary(void) {
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

#endif
