/*
 * What the C examples share: the report of a failure, reading a file, and walking a JSON array
 * that dbcore hands back. Each example includes it by its relative name, so a compiler finds it
 * beside the example with no -I of its own.
 */
#ifndef DBCORE_EXAMPLE_H
#define DBCORE_EXAMPLE_H

#include "dbcore.h"

#include <stdio.h>
#include <stdlib.h>

/* Print the last failure's detail (its status, the rule it names if any, its message) and
 * return 1, the program's exit code. */
static inline int fail(const char *what, DbcoreStatus status) {
    char msg[1024], rule[32];
    dbcore_last_error_message(msg, sizeof msg);
    dbcore_last_error_rule(rule, sizeof rule);
    fprintf(stderr, "%s: %s%s%s: %s\n", what, dbcore_status_name(status), rule[0] ? " " : "",
            rule, msg);
    return 1;
}

/* The whole file as a NUL-terminated string (free it), or NULL. */
static inline char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)size + 1)) != NULL) {
        if (fread(text, 1, (size_t)size, f) != (size_t)size) {
            free(text);
            text = NULL;
        } else {
            text[size] = '\0';
        }
    }
    fclose(f);
    return text;
}

/* Call `each` with every item of the JSON array `array`, as JSON text, in order; the count of
 * items goes to `count` when it is not NULL. The first status that is not OK stops the walk
 * and is returned. */
static inline DbcoreStatus for_each_item(const char *array, void (*each)(const char *item),
                                         uint32_t *count) {
    uint32_t n = 0, i;
    DbcoreStatus s = dbcore_json_array_len(array, &n);
    for (i = 0; s == DBCORE_STATUS_OK && i < n; i++) {
        char *item = NULL;
        if ((s = dbcore_json_array_at(array, i, &item)) == DBCORE_STATUS_OK) each(item);
        dbcore_string_free(item);
    }
    if (count) *count = n;
    return s;
}

#endif
