/*
 * odds: the exact odds of a close combat between two element kinds (DBA 3.0).
 *
 *     odds 4Bd 4Wb        (defaults: Sp Ps)
 *
 * Build (from the repository root) against dbcore installed in DIR:
 *     cargo run -p xtask -- install --prefix DIR
 *     export PKG_CONFIG_PATH=DIR/lib/pkgconfig
 *     cc -std=c11 examples/c/odds.c $(pkg-config --cflags --libs dbcore) -o odds
 */
#include "example.h"

#include <stdio.h>
#include <string.h>

static void print_factors(const char *code, int32_t sum, const DbcoreFactor *f, uint32_t n) {
    uint32_t i;
    printf("%-8s %+d:", code, sum);
    for (i = 0; i < n; i++) {
        char label[64];
        dbcore_factor_label(f[i].name, label, sizeof label, NULL);
        printf("%s %s %+d", i ? "," : "", label, f[i].value);
    }
    printf("\n");
}

int main(int argc, char **argv) {
    static const char *const outcome[4] = {"no effect", "recoil", "flee", "destroyed"};
    const char *code_a = argc > 1 ? argv[1] : "Sp";
    const char *code_b = argc > 2 ? argv[2] : "Ps";
    DbcoreSituation sit;
    DbcoreOdds odds;
    DbcoreStatus s;
    int i, j;

    memset(&sit, 0, sizeof sit); /* zeroed: good going, in the open, no supports */
    if ((s = dbcore_element_kind_parse(code_a, &sit.a.kind)) != DBCORE_STATUS_OK)
        return fail(code_a, s);
    if ((s = dbcore_element_kind_parse(code_b, &sit.b.kind)) != DBCORE_STATUS_OK)
        return fail(code_b, s);
    if ((s = dbcore_odds(&sit, &odds)) != DBCORE_STATUS_OK) return fail("odds", s);

    printf("%s vs %s in close combat (dbcore %s), out of 36:\n\n", code_a, code_b,
           dbcore_version());
    print_factors(code_a, odds.a_factor, odds.a_factors, odds.a_factor_count);
    print_factors(code_b, odds.b_factor, odds.b_factors, odds.b_factor_count);

    printf("\n%-12s", "a \\ b");
    for (j = 0; j < 4; j++) printf("%11s", outcome[j]);
    printf("%11s\n", "total");
    for (i = 0; i < 4; i++) {
        printf("%-12s", outcome[i]);
        for (j = 0; j < 4; j++) printf("%11u", (unsigned)odds.counts[i][j]);
        printf("%11u\n", (unsigned)odds.a[i]);
    }
    printf("%-12s", "total");
    for (j = 0; j < 4; j++) printf("%11u", (unsigned)odds.b[j]);
    printf("%11d\n", 36);

    printf("\n%s doubled %s: %u, won: %u, tied: %u, lost: %u, doubled by %s: %u\n", code_a,
           code_b, (unsigned)odds.margins.a_doubled_b, (unsigned)odds.margins.a_won,
           (unsigned)odds.margins.tied, (unsigned)odds.margins.b_won, code_b,
           (unsigned)odds.margins.b_doubled_a);
    return 0;
}
