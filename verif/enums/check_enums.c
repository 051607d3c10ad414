/*
 * check_enums — checks rtl/common/ibsec_enums.vh against the C model's enums.
 *
 *   check_enums <enums.vh> <rtl dir>...
 *
 * The RTL gives drop reasons, modes and header shapes as numbers that the harness
 * compares with the model's (verif/engine); a code the regressions never produce would
 * not be caught there. This tool reads every localparam of the header and checks:
 *   - each reason of enum ibsec_reason but IBSEC_R_NOSPACE (the model's own "output
 *     buffer too small") is R_<NAME> with its value, NAME the upper-case of
 *     ibsec_reason_name(); each mode is M_<NAME> from ibsec_mode_name() ('-' -> '_'),
 *     and M_COUNT is IBSEC_MODE_COUNT; each shape is SHAPE_<NAME> of enum ibsec_shape;
 *   - each localparam's width holds its value and its literal has the declared width;
 *   - the header defines nothing else, nothing twice;
 *   - no .v file of the RTL directory declares one of these names again (one definition).
 * Prints one line per failure and "N passed, N failed"; exits 1 on a failure, 2 when a
 * file cannot be read.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ib_pkt.h"
#include "ibsec.h"

#define MAX_PARAMS 128
#define NAME_LEN   48

struct param {
    char     name[NAME_LEN];
    unsigned width;     /* from [H:0] */
    unsigned lit_width; /* from W'dV */
    unsigned long value;
    int      line;
    int      seen;      /* matched by an expected entry */
};

static struct param params[MAX_PARAMS];
static int n_params;
static unsigned long n_pass, n_fail;

static void check(int ok, const char *fmt, const char *a, unsigned long b)
{
    if (ok) {
        n_pass++;
        return;
    }
    n_fail++;
    printf("FAIL: ");
    printf(fmt, a, b);
    printf("\n");
}

/* One "localparam [H:0] NAME = W'dV;" per line; other lines are ignored. Returns 1 and
 * fills *p when the line declares one, 0 otherwise, -1 for a localparam line it cannot
 * read (reported by the caller). */
static int parse_localparam(const char *line, struct param *p)
{
    const char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncmp(s, "localparam", 10) != 0)
        return 0;
    unsigned hi, lo, w;
    unsigned long v;
    char name[NAME_LEN];
    if (sscanf(s, "localparam [%u:%u] %47[A-Za-z0-9_] = %u'd%lu", &hi, &lo, name, &w, &v) != 5
        || lo != 0)
        return -1;
    snprintf(p->name, sizeof p->name, "%s", name);
    p->width = hi + 1;
    p->lit_width = w;
    p->value = v;
    return 1;
}

static int read_header(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "check_enums: cannot open %s\n", path);
        return -1;
    }
    char line[512];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        struct param p = {0};
        int r = parse_localparam(line, &p);
        if (r < 0) {
            printf("FAIL: %s:%d: a localparam not of the form [H:0] NAME = W'dV\n", path, ln);
            n_fail++;
            continue;
        }
        if (r == 0)
            continue;
        if (n_params == MAX_PARAMS) {
            fprintf(stderr, "check_enums: %s: more than %d localparams\n", path, MAX_PARAMS);
            fclose(f);
            return -1;
        }
        p.line = ln;
        params[n_params++] = p;
    }
    fclose(f);
    if (n_params == 0) {
        fprintf(stderr, "check_enums: %s declares no localparam\n", path);
        return -1;
    }
    return 0;
}

static struct param *find(const char *name)
{
    for (int i = 0; i < n_params; i++)
        if (strcmp(params[i].name, name) == 0)
            return &params[i];
    return NULL;
}

/* The header must define `name` = value. */
static void expect(const char *name, unsigned long value)
{
    struct param *p = find(name);
    check(p != NULL, "%s (value %lu) is missing", name, value);
    if (!p)
        return;
    p->seen++;
    check(p->value == value, "%s has the wrong value, the model's is %lu", name, value);
}

/* PREFIX + the model's name in upper case, '-' as '_'. */
static void model_name(char *out, size_t n, const char *prefix, const char *name)
{
    size_t k = (size_t)snprintf(out, n, "%s", prefix);
    for (; *name && k + 1 < n; name++)
        out[k++] = (*name == '-') ? '_' : (char)toupper((unsigned char)*name);
    out[k] = '\0';
}

static void expect_model_enums(void)
{
    char name[NAME_LEN];
    for (unsigned r = 0; r < IBSEC_R_COUNT; r++) {
        if (r == IBSEC_R_NOSPACE)
            continue;
        model_name(name, sizeof name, "R_", ibsec_reason_name((enum ibsec_reason)r));
        expect(name, r);
    }
    for (unsigned m = 0; m < IBSEC_MODE_COUNT; m++) {
        model_name(name, sizeof name, "M_", ibsec_mode_name((enum ibsec_mode)m));
        expect(name, m);
    }
    expect("M_COUNT", IBSEC_MODE_COUNT);
    /* ibsec_shape_name() gives the traffic names ("native-noGRH"), so the shapes are
     * bound by the compiler instead. */
#define SHAPE(x) { "SHAPE_" #x, IBSEC_SHAPE_##x }
    static const struct { const char *name; unsigned value; } shapes[] = {
        SHAPE(IB_LOCAL), SHAPE(IB_GLOBAL), SHAPE(ROCE_V4), SHAPE(ROCE_V6),
    };
#undef SHAPE
    check(sizeof shapes / sizeof shapes[0] == IBSEC_SHAPE_COUNT,
          "%s: the model has %lu shapes, the list here fewer", "SHAPE_*",
          (unsigned long)IBSEC_SHAPE_COUNT);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        expect(shapes[i].name, shapes[i].value);
}

static void check_header_itself(void)
{
    for (int i = 0; i < n_params; i++) {
        const struct param *p = &params[i];
        check(p->seen == 1, "%s (line %lu) is not a code of the model's enums, or is defined twice",
              p->name, (unsigned long)p->line);
        check(p->width == p->lit_width, "%s: the literal's width differs from [%lu:0]", p->name,
              (unsigned long)p->width - 1);
        check(p->width < 32 && p->value < (1ul << p->width), "%s: %lu does not fit its width",
              p->name, p->value);
    }
}

/* The next name declared on a localparam line at or after q: the identifier in front of
 * an '=' that is not part of a comparison, at or after lo (the line's "localparam"). Returns the position after that '=', or NULL. */
static const char *next_declared(const char *lo, const char *q, char *name, size_t n)
{
    for (; (q = strchr(q, '=')) != NULL; q++) {
        if (q == lo || q[1] == '=' || q[-1] == '=' || q[-1] == '!' || q[-1] == '<' || q[-1] == '>')
            continue;
        const char *end = q;
        while (end > lo && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        const char *beg = end;
        while (beg > lo && (isalnum((unsigned char)beg[-1]) || beg[-1] == '_'))
            beg--;
        size_t len = (size_t)(end - beg);
        if (len == 0 || len >= n)
            continue;
        memcpy(name, beg, len);
        name[len] = '\0';
        return q + 1;
    }
    return NULL;
}

/* No RTL file may declare one of the header's names again. */
static int check_no_redefinition(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "check_enums: cannot open the directory %s\n", dir);
        return -1;
    }
    struct dirent *e;
    unsigned files = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".v") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "check_enums: cannot open %s\n", path);
            closedir(d);
            return -1;
        }
        files++;
        char line[1024];
        unsigned redefined = 0;
        while (fgets(line, sizeof line, f)) {
            const char *s = strstr(line, "localparam");
            if (!s)
                continue;
            char name[NAME_LEN];
            for (const char *q = s; (q = next_declared(s, q, name, sizeof name)) != NULL;) {
                if (find(name)) {
                    printf("FAIL: %s declares %s again\n", path, name);
                    redefined++;
                }
            }
        }
        fclose(f);
        n_fail += redefined;
        n_pass += (redefined == 0);
    }
    closedir(d);
    if (files == 0) {
        fprintf(stderr, "check_enums: no .v file in %s\n", dir);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: check_enums <enums.vh> <rtl dir>...\n");
        return 2;
    }
    if (read_header(argv[1]) != 0)
        return 2;
    expect_model_enums();
    check_header_itself();
    for (int i = 2; i < argc; i++)
        if (check_no_redefinition(argv[i]) != 0)
            return 2;
    printf("%lu passed, %lu failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
