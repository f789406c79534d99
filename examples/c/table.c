/*
 * table: load a table (a battlefield with elements on it) from JSON and print, for each element,
 * what touches it, whether it is in close combat, and whose threat zones it is in (DBA 3.0).
 *
 *     table [TABLE.json [PICTURE.svg]]     (default: examples/data/table.json)
 *
 * With a second argument, also write the picture of the table, threat zones shaded.
 *
 * Build (from the repository root) against dbcore installed in DIR:
 *     cargo run -p xtask -- install --prefix DIR
 *     export PKG_CONFIG_PATH=DIR/lib/pkgconfig
 *     cc -std=c11 examples/c/table.c $(pkg-config --cflags --libs dbcore) -o table
 */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>

/* Print one element's answers; returns a status. */
static DbcoreStatus describe(const DbcoreTable *table, const DbcorePlacedElement *e) {
    static const char *const going_name[4] = {"good", "rough", "bad", "impassable"};
    char code[16];
    char *contacts = NULL, *zones = NULL;
    uint32_t fighting = 0, going = 0;
    DbcoreStatus s;

    if ((s = dbcore_element_kind_print(&e->kind, code, sizeof code, NULL)) != DBCORE_STATUS_OK ||
        (s = dbcore_table_contacts_json(table, e->id, &contacts)) != DBCORE_STATUS_OK ||
        (s = dbcore_table_threat_zones_on_json(table, e->id, &zones)) != DBCORE_STATUS_OK ||
        (s = dbcore_table_in_close_combat(table, e->id, &fighting)) != DBCORE_STATUS_OK ||
        (s = dbcore_table_going_under(table, e->id, &going)) != DBCORE_STATUS_OK) {
        dbcore_string_free(contacts);
        dbcore_string_free(zones);
        return s;
    }
    printf("%u: side %u %s%s at (%.2f, %.2f) facing %.0f, %s going%s\n", (unsigned)e->id,
           (unsigned)e->side, code, e->general ? " (general)" : "", e->x, e->y, e->facing,
           going < 4 ? going_name[going] : "?", fighting ? ", in close combat" : "");
    printf("   contacts: %s\n", contacts);
    printf("   in the threat zones of: %s\n", zones);
    dbcore_string_free(contacts);
    dbcore_string_free(zones);
    return DBCORE_STATUS_OK;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "examples/data/table.json";
    DbcoreTable *table = NULL;
    DbcorePlacedElement e;
    DbcoreStatus s;
    uint32_t i, n = 0;
    char *text = read_file(path);
    int rc = 0;

    if (!text) {
        perror(path);
        return 1;
    }
    s = dbcore_table_new_json(text, &table);
    free(text);
    if (s != DBCORE_STATUS_OK) return fail(path, s);

    if ((s = dbcore_table_element_count(table, &n)) != DBCORE_STATUS_OK) {
        rc = fail("element count", s);
        goto done;
    }
    printf("%s: %u elements (dbcore %s)\n", path, (unsigned)n, dbcore_version());
    for (i = 0; i < n; i++) {
        if ((s = dbcore_table_element_at(table, i, &e)) != DBCORE_STATUS_OK ||
            (s = describe(table, &e)) != DBCORE_STATUS_OK) {
            rc = fail("element", s);
            goto done;
        }
    }

    if (argc > 2) {
        char *svg = NULL;
        FILE *out;
        if ((s = dbcore_table_svg(table, 1, &svg)) != DBCORE_STATUS_OK) {
            rc = fail("svg", s);
            goto done;
        }
        out = fopen(argv[2], "w");
        if (!out || fputs(svg, out) < 0) {
            perror(argv[2]);
            rc = 1;
        } else {
            printf("wrote %s\n", argv[2]);
        }
        if (out) fclose(out);
        dbcore_string_free(svg);
    }
done:
    dbcore_table_free(table);
    return rc;
}
