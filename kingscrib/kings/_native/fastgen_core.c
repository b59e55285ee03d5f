/* The inner loop of kingscrib.kings.fastgen in C: every legal play of a position whose
 * board is not empty, as (sort code, total, squares, faces) tuples. The Python module
 * keeps an equivalent pure-Python path and is the documentation; this file only makes
 * it faster. Board geometry (lanes) is given by Python through init(). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define MAXSQ 256
#define MAXLANES 64
#define MAXLEN 32
#define MAX_HAND 5
#define RACK 5
#define BONUS 10
#define INVALID (-1)

static int nsq = 0;
static int nlanes[2];
static int lane_len[2][MAXLANES];
static int lane_sq[2][MAXLANES][MAXLEN];
static int lane_of[2][MAXSQ];   /* -1: not playable */
static int pos_of[2][MAXSQ];
static int nb[MAXSQ][4];        /* orthogonal neighbours, -1 none */
static PyObject *span_obj = NULL; /* BASE ** RACK */
static unsigned long long span_u = 0; /* the same, or 0 when it does not fit 64 bits */
static unsigned long long base_pow[RACK + 1][RACK];

/* ----- hands ------------------------------------------------------------ */
#define HSLOTS 65536
static unsigned long long hkey[HSLOTS];
static int hval[HSLOTS]; /* total, or -1 invalid; slot empty when hkey == 0 */
static const unsigned long long W[14] = {0ULL, 1ULL, 6ULL, 36ULL, 216ULL, 1296ULL, 7776ULL,
    46656ULL, 279936ULL, 1679616ULL, 10077696ULL, 60466176ULL, 362797056ULL, 2176782336ULL};

static int compute_hand(const int *r, int n) {
    int covered = 0, fifteens = 0, pairs = 0, i, j, m;
    int pts[MAX_HAND];
    if (n < 2 || n > MAX_HAND) return -1;
    for (i = 0; i < n; i++) pts[i] = r[i] < 10 ? r[i] : 10;
    for (m = 1; m < (1 << n); m++) {
        int s = 0, c = 0;
        for (i = 0; i < n; i++) if (m >> i & 1) { s += pts[i]; c++; }
        if (c >= 2 && s == 15) { fifteens++; covered |= m; }
    }
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
        if (r[i] == r[j]) { pairs++; covered |= (1 << i) | (1 << j); }
    int mult[15] = {0};
    for (i = 0; i < n; i++) mult[r[i]]++;
    int best_lo = 0, best_len = 0, start = 0;
    for (int k = 1; k <= 14; k++) {
        int present = k <= 13 && mult[k] > 0;
        if (present) { if (!start) start = k; }
        else if (start) {
            int len = k - start;
            if (len >= 3 && len > best_len) { best_len = len; best_lo = start; }
            start = 0;
        }
    }
    int runs = 0;
    if (best_len) {
        int ways = 1;
        for (int k = best_lo; k < best_lo + best_len; k++) ways *= mult[k];
        runs = ways * best_len;
        for (i = 0; i < n; i++) if (r[i] >= best_lo && r[i] < best_lo + best_len) covered |= 1 << i;
    }
    if (covered != (1 << n) - 1) return -1;
    return 2 * fifteens + 2 * pairs + runs;
}

static int hand(const int *r, int n) {
    unsigned long long key = 0;
    for (int i = 0; i < n; i++) key += W[r[i]];
    key = key * 8 + n; /* never 0 */
    unsigned long h = (unsigned long)((key * 11400714819323198485ULL) >> 48) & (HSLOTS - 1);
    while (hkey[h]) {
        if (hkey[h] == key) return hval[h];
        h = (h + 1) & (HSLOTS - 1);
    }
    int v = compute_hand(r, n);
    hkey[h] = key;
    hval[h] = v;
    return v;
}

/* ----- position state for one call ------------------------------------- */
static int R[MAXSQ], C[MAXSQ];
static int xc[2][MAXSQ][28];
static int has_xc[2][MAXSQ]; /* 0 unknown, 1 none, 2 present */

static void cross(int q, int d) {
    int l = lane_of[d][q], p = pos_of[d][q];
    int ranks[MAX_HAND + 1], n = 0, cols = 0, k;
    int *out = xc[d][q];
    int too_long = 0;
    for (k = p - 1; k >= 0; k--) {
        int s = lane_sq[d][l][k];
        if (!R[s]) break;
        if (n < MAX_HAND) ranks[n] = R[s]; else too_long = 1;
        n++; cols |= 1 << C[s];
    }
    for (k = p + 1; k < lane_len[d][l]; k++) {
        int s = lane_sq[d][l][k];
        if (!R[s]) break;
        if (n < MAX_HAND) ranks[n] = R[s]; else too_long = 1;
        n++; cols |= 1 << C[s];
    }
    if (n == 0) { has_xc[d][q] = 1; return; }
    has_xc[d][q] = 2;
    for (k = 0; k < 28; k++) out[k] = INVALID;
    if (too_long || n + 1 > MAX_HAND) return;
    for (int r = 1; r <= 13; r++) {
        ranks[n] = r;
        int v = hand(ranks, n + 1);
        if (v < 0) continue;
        if (n + 1 == MAX_HAND && cols != 3) {
            out[r * 2] = v + (cols == 1 ? BONUS : 0);
            out[r * 2 + 1] = v + (cols == 2 ? BONUS : 0);
        } else {
            out[r * 2] = out[r * 2 + 1] = v;
        }
    }
}

static int *xcheck(int q, int d) {
    if (!has_xc[d][q]) cross(q, d);
    return has_xc[d][q] == 2 ? xc[d][q] : NULL;
}

/* ----- output ----------------------------------------------------------- */
static int out_error;
/* best-score mode: keep only the highest total, build no Python objects */
static int best_mode, best_total;
/* best-equity mode: keep only the play with the highest total + leave value (the leave
 * indexed by the mask of rack tiles used), ties to the smallest sort code */
static int eq_mode, eq_found, eq_total, eq_n, eq_sq[RACK], eq_faces[RACK];
static unsigned long long eq_code;
static double eq_best, eq_leave[1 << RACK];

static unsigned long long code_of(int n, const int *sq, const int *faces) {
    unsigned long long code = 0;
    for (int k = 0; k < n; k++) code += (unsigned long long)(sq[k] * 28 + faces[k]) * base_pow[n][k];
    return code;
}

static void emit_equity(int total, int n, const int *sq, const int *faces, int mask) {
    double eq = (double)total + eq_leave[mask];
    if (eq_found) {
        if (eq < eq_best) return;
        if (eq == eq_best) { /* the sort code: total down, then tiles up, then placement */
            if (total < eq_total) return;
            if (total == eq_total) {
                if (n > eq_n) return;
                if (n == eq_n && code_of(n, sq, faces) >= eq_code) return;
            }
        }
    }
    eq_found = 1; eq_best = eq; eq_total = total; eq_n = n;
    eq_code = code_of(n, sq, faces);
    for (int k = 0; k < n; k++) { eq_sq[k] = sq[k]; eq_faces[k] = faces[k]; }
}

/* head * BASE ** RACK + code, the play's sort code (about 76 bits). With a 128-bit
   integer type it is one conversion instead of three arithmetic calls on Python ints,
   the larger part of a play's cost when every play is built. */
static PyObject *sort_key(long head, unsigned long long code) {
#ifdef __SIZEOF_INT128__
    if (span_u && head >= 0) {
        unsigned __int128 v = (unsigned __int128)head * span_u + code;
        if ((v >> 64) == 0) return PyLong_FromUnsignedLongLong((unsigned long long)v);
        unsigned char bytes[16]; /* little-endian, whatever the machine's order */
        for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(v >> (8 * i));
        return _PyLong_FromByteArray(bytes, 16, 1, 0);
    }
#endif
    PyObject *h = PyLong_FromLong(head);
    PyObject *hs = h ? PyNumber_Multiply(h, span_obj) : NULL;
    PyObject *c = PyLong_FromUnsignedLongLong(code);
    PyObject *key = (hs && c) ? PyNumber_Add(hs, c) : NULL;
    Py_XDECREF(h); Py_XDECREF(hs); Py_XDECREF(c);
    return key;
}

/* The (sort code, total, squares, faces) tuple of a play, or NULL with an exception. */
static PyObject *build_play(int total, int n, const int *sq, const int *faces) {
    unsigned long long code = 0;
    for (int k = 0; k < n; k++) code += (unsigned long long)(sq[k] * 28 + faces[k]) * base_pow[n][k];
    long head = (long)((4096 - total) * 8 + n);
    PyObject *key = sort_key(head, code);
    PyObject *tot = PyLong_FromLong(total);
    PyObject *sqt = PyTuple_New(n), *ft = PyTuple_New(n), *t = PyTuple_New(4);
    if (!key || !tot || !sqt || !ft || !t) {
        Py_XDECREF(key); Py_XDECREF(tot); Py_XDECREF(sqt); Py_XDECREF(ft); Py_XDECREF(t);
        return NULL;
    }
    for (int k = 0; k < n; k++) { /* small ints: the interpreter's shared objects */
        PyTuple_SET_ITEM(sqt, k, PyLong_FromLong(sq[k]));
        PyTuple_SET_ITEM(ft, k, PyLong_FromLong(faces[k]));
    }
    PyTuple_SET_ITEM(t, 0, key);
    PyTuple_SET_ITEM(t, 1, tot);
    PyTuple_SET_ITEM(t, 2, sqt);
    PyTuple_SET_ITEM(t, 3, ft);
    return t;
}

/* Plays are gathered as C structs, sorted in C by their sort code (head, then code:
   code < BASE ** RACK, so this is the order of head * BASE ** RACK + code, and every
   play's code is its own), then built as Python tuples already best first, so that
   the caller's sort finds one sorted run. */
typedef struct {
    unsigned long long code;
    int head, total, n;
    int sq[RACK], faces[RACK];
} Found;
static Found *found = NULL;
static size_t nfound = 0, found_cap = 0;

static int found_order(const void *a, const void *b) {
    const Found *x = a, *y = b;
    if (x->head != y->head) return x->head < y->head ? -1 : 1;
    return x->code < y->code ? -1 : x->code > y->code;
}

static void emit(int total, int n, const int *sq, const int *faces) {
    if (best_mode) { if (total > best_total) best_total = total; return; }
    if (out_error) return;
    if (nfound == found_cap) {
        size_t cap = found_cap ? found_cap * 2 : 1024;
        Found *more = realloc(found, cap * sizeof(Found));
        if (!more) { out_error = 1; PyErr_NoMemory(); return; }
        found = more; found_cap = cap;
    }
    Found *f = &found[nfound++];
    f->code = 0;
    for (int k = 0; k < n; k++) {
        f->code += (unsigned long long)(sq[k] * 28 + faces[k]) * base_pow[n][k];
        f->sq[k] = sq[k]; f->faces[k] = faces[k];
    }
    f->head = (4096 - total) * 8 + n;
    f->total = total; f->n = n;
}

/* ----- the window search ------------------------------------------------ */
static int rack_f[RACK], nrack; /* held faces (6/9 as 6), sorted */
static int used[RACK];
static int w_e, w_len, w_exn, w_ex[MAX_HAND], w_acols, w_bonus;
static int w_sq[MAX_HAND];
static int *w_chk[MAX_HAND];
static int cur_f[MAX_HAND];

static void dfs(int k, int cross_total) {
    if (k == w_e) {
        int ranks[MAX_HAND], n = 0, cols = w_acols;
        for (int i = 0; i < w_exn; i++) ranks[n++] = w_ex[i];
        for (int i = 0; i < w_e; i++) { ranks[n++] = cur_f[i] >> 1; cols |= 1 << (cur_f[i] & 1); }
        int v = hand(ranks, n);
        if (v < 0) return;
        int total = v + w_bonus + cross_total;
        if (n == MAX_HAND && cols != 3) total += BONUS;
        if (eq_mode) {
            int mask = 0;
            for (int i = 0; i < nrack; i++) mask |= used[i] << i;
            emit_equity(total, w_e, w_sq, cur_f, mask);
            return;
        }
        emit(total, w_e, w_sq, cur_f);
        return;
    }
    int *chk = w_chk[k];
    for (int i = 0; i < nrack; i++) {
        if (used[i]) continue;
        if (i > 0 && rack_f[i] == rack_f[i - 1] && !used[i - 1]) continue;
        used[i] = 1;
        int f0 = rack_f[i];
        int faces[2] = {f0, -1};
        if ((f0 >> 1) == 6) faces[1] = 18 + (f0 & 1); /* a 6/9 tile may show 9 */
        for (int j = 0; j < 2 && faces[j] >= 0; j++) {
            int f = faces[j], x = 0;
            if (chk) { x = chk[f]; if (x < 0) continue; }
            cur_f[k] = f;
            dfs(k + 1, cross_total + x);
        }
        used[i] = 0;
    }
}

/* Read (ranks, colours, held, five_bonus) into the position state; 0 on error (exception
 * set), else 1. *any is set when the board holds a tile. */
static int load(PyObject *args, int *five_bonus, int *any) {
    Py_buffer rb, cb, kb;
    if (!PyArg_ParseTuple(args, "y*y*y*i", &rb, &cb, &kb, five_bonus)) return 0;
    if (rb.len != nsq || cb.len != nsq || kb.len > RACK) {
        PyBuffer_Release(&rb); PyBuffer_Release(&cb); PyBuffer_Release(&kb);
        PyErr_SetString(PyExc_ValueError, "bad board or rack");
        return 0;
    }
    const unsigned char *rr = rb.buf, *cc = cb.buf, *kk = kb.buf;
    *any = 0;
    for (int q = 0; q < nsq; q++) { R[q] = rr[q]; C[q] = cc[q]; *any |= R[q]; }
    nrack = (int)kb.len;
    for (int i = 0; i < nrack; i++) rack_f[i] = kk[i];
    PyBuffer_Release(&rb); PyBuffer_Release(&cb); PyBuffer_Release(&kb);
    /* sort the rack so equal tiles sit together */
    for (int i = 1; i < nrack; i++) for (int j = i; j > 0 && rack_f[j - 1] > rack_f[j]; j--) {
        int t = rack_f[j]; rack_f[j] = rack_f[j - 1]; rack_f[j - 1] = t;
    }
    memset(has_xc, 0, sizeof(has_xc));
    memset(used, 0, sizeof(used));
    return 1;
}

/* Every play of a board that is not empty, passed to emit(); 0 when emit failed. */
static int scan(int five_bonus) {
    for (int d = 0; d < 2; d++) {
        int cd = 1 - d;
        for (int l = 0; l < nlanes[d]; l++) {
            int n = lane_len[d][l];
            const int *lane = lane_sq[d][l];
            int occ[MAXLEN], rel[MAXLEN + 1], po[MAXLEN + 1];
            po[0] = rel[0] = 0;
            for (int k = 0; k < n; k++) {
                int q = lane[k];
                occ[k] = R[q];
                int near = 0;
                if (!R[q]) {
                    int *ch = xcheck(q, cd);
                    near = ch != NULL;
                }
                po[k + 1] = po[k] + (R[q] ? 1 : 0);
                rel[k + 1] = rel[k] + ((R[q] || near) ? 1 : 0);
            }
            if (!rel[n]) continue;
            for (int i = 0; i < n; i++) {
                if (i && occ[i - 1]) continue;
                for (int j = i + 1; j < n && j < i + MAX_HAND; j++) {
                    if (j + 1 < n && occ[j + 1]) continue;
                    if (rel[j + 1] == rel[i]) continue;
                    int len = j - i + 1, e = len - (po[j + 1] - po[i]);
                    if (e < 2 || e > nrack) continue;
                    w_e = 0; w_exn = 0; w_acols = 0; w_len = len;
                    for (int k = i; k <= j; k++) {
                        int q = lane[k];
                        if (occ[k]) { w_ex[w_exn++] = occ[k]; w_acols |= 1 << C[q]; }
                        else { w_sq[w_e] = q; w_chk[w_e] = xcheck(q, cd); w_e++; }
                    }
                    w_bonus = e == RACK ? five_bonus : 0;
                    dfs(0, 0);
                    if (out_error) return 0;
                }
            }
        }
    }
    /* single tiles */
    static int seen[MAXSQ];
    memset(seen, 0, sizeof(seen));
    for (int s = 0; s < nsq; s++) {
        if (!R[s]) continue;
        for (int k = 0; k < 4; k++) {
            int q = nb[s][k];
            if (q < 0 || R[q] || seen[q]) continue;
            seen[q] = 1;
            int *a = xcheck(q, 0), *dn = xcheck(q, 1);
            for (int i = 0; i < nrack; i++) {
                if (i > 0 && rack_f[i] == rack_f[i - 1]) continue;
                int f0 = rack_f[i];
                int faces[2] = {f0, -1};
                if ((f0 >> 1) == 6) faces[1] = 18 + (f0 & 1);
                for (int j = 0; j < 2 && faces[j] >= 0; j++) {
                    int f = faces[j], x = 0;
                    if (a) { if (a[f] < 0) continue; x += a[f]; }
                    if (dn) { if (dn[f] < 0) continue; x += dn[f]; }
                    int sq1[1] = {q}, f1[1] = {f};
                    if (eq_mode) emit_equity(x, 1, sq1, f1, 1 << i);
                    else emit(x, 1, sq1, f1);
                }
            }
        }
    }
    return !out_error;
}

static PyObject *py_generate(PyObject *self, PyObject *args) {
    int five_bonus, any;
    if (!load(args, &five_bonus, &any)) return NULL;
    out_error = 0;
    best_mode = 0;
    if (!any) return PyList_New(0); /* the first play is laid by Python */
    nfound = 0;
    if (!scan(five_bonus)) return NULL;
    qsort(found, nfound, sizeof(Found), found_order);
    PyObject *out = PyList_New((Py_ssize_t)nfound);
    if (!out) return NULL;
    for (size_t i = 0; i < nfound; i++) {
        const Found *f = &found[i];
        PyObject *t = build_play(f->total, f->n, f->sq, f->faces);
        if (!t) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

/* The highest total of any play (same arguments as generate), -1 when there is none. */
static PyObject *py_best(PyObject *self, PyObject *args) {
    int five_bonus, any;
    if (!load(args, &five_bonus, &any)) return NULL;
    if (!any) { PyErr_SetString(PyExc_ValueError, "the first play is laid by Python"); return NULL; }
    out_error = 0;
    best_mode = 1;
    best_total = -1;
    scan(five_bonus);
    best_mode = 0;
    return PyLong_FromLong(best_total);
}

/* The play with the highest total + leave value: arguments as generate, then a sequence
 * of 2 ** len(held) leave values indexed by the mask of the tiles used, bit i for the
 * i-th tile of the held faces sorted ascending. Returns (equity, raw play), or None
 * when there is no play. Ties go to the smallest sort code, as sorted() would order them. */
static PyObject *py_best_equity(PyObject *self, PyObject *args) {
    int five_bonus, any;
    PyObject *head, *leaves;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs != 5) { PyErr_SetString(PyExc_TypeError, "best_equity takes 5 arguments"); return NULL; }
    head = PyTuple_GetSlice(args, 0, 4);
    if (!head) return NULL;
    int ok = load(head, &five_bonus, &any);
    Py_DECREF(head);
    if (!ok) return NULL;
    if (!any) { PyErr_SetString(PyExc_ValueError, "the first play is laid by Python"); return NULL; }
    leaves = PySequence_Fast(PyTuple_GET_ITEM(args, 4), "leave values must be a sequence");
    if (!leaves) return NULL;
    if (PySequence_Fast_GET_SIZE(leaves) != (1 << nrack)) {
        Py_DECREF(leaves);
        PyErr_SetString(PyExc_ValueError, "need 2 ** len(held) leave values");
        return NULL;
    }
    for (int m = 0; m < (1 << nrack); m++) {
        eq_leave[m] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(leaves, m));
    }
    Py_DECREF(leaves);
    if (PyErr_Occurred()) return NULL;
    out_error = 0; best_mode = 0; eq_mode = 1; eq_found = 0;
    scan(five_bonus);
    eq_mode = 0;
    if (!eq_found) Py_RETURN_NONE;
    PyObject *raw = build_play(eq_total, eq_n, eq_sq, eq_faces);
    if (!raw) return NULL;
    PyObject *res = Py_BuildValue("(dO)", eq_best, raw);
    Py_DECREF(raw);
    return res;
}

/* init(nsq, lanes_across, lanes_down, base): lanes are sequences of square sequences. */
static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *lanes[2];
    long base;
    if (!PyArg_ParseTuple(args, "iOOl", &nsq, &lanes[0], &lanes[1], &base)) return NULL;
    if (nsq <= 0 || nsq > MAXSQ) { PyErr_SetString(PyExc_ValueError, "board too big"); return NULL; }
    for (int d = 0; d < 2; d++) {
        for (int q = 0; q < MAXSQ; q++) lane_of[d][q] = -1;
        PyObject *seq = PySequence_Fast(lanes[d], "lanes must be a sequence");
        if (!seq) return NULL;
        nlanes[d] = (int)PySequence_Fast_GET_SIZE(seq);
        if (nlanes[d] > MAXLANES) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "too many lanes"); return NULL; }
        for (int l = 0; l < nlanes[d]; l++) {
            PyObject *lane = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, l), "lane");
            if (!lane) { Py_DECREF(seq); return NULL; }
            lane_len[d][l] = (int)PySequence_Fast_GET_SIZE(lane);
            for (int k = 0; k < lane_len[d][l]; k++) {
                int q = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(lane, k));
                lane_sq[d][l][k] = q;
                lane_of[d][q] = l;
                pos_of[d][q] = k;
            }
            Py_DECREF(lane);
        }
        Py_DECREF(seq);
    }
    for (int q = 0; q < nsq; q++) {
        for (int k = 0; k < 4; k++) nb[q][k] = -1;
        for (int d = 0; d < 2; d++) {
            int l = lane_of[d][q];
            if (l < 0) continue;
            int p = pos_of[d][q];
            if (p > 0) nb[q][d * 2] = lane_sq[d][l][p - 1];
            if (p + 1 < lane_len[d][l]) nb[q][d * 2 + 1] = lane_sq[d][l][p + 1];
        }
    }
    for (int n = 0; n <= RACK; n++) {
        for (int k = 0; k < n; k++) {
            unsigned long long v = 1;
            for (int m = 0; m < n - 1 - k; m++) v *= (unsigned long long)base;
            base_pow[n][k] = v;
        }
    }
    span_u = 1;
    for (int m = 0; m < RACK && span_u; m++)
        span_u = span_u <= ~0ULL / (unsigned long long)base ? span_u * (unsigned long long)base : 0;
    Py_XDECREF(span_obj);
    PyObject *b = PyLong_FromLong(base), *r = PyLong_FromLong(RACK);
    span_obj = PyNumber_Power(b, r, Py_None);
    Py_DECREF(b); Py_DECREF(r);
    if (!span_obj) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_hand(PyObject *self, PyObject *args) {
    PyObject *seq;
    if (!PyArg_ParseTuple(args, "O", &seq)) return NULL;
    PyObject *f = PySequence_Fast(seq, "ranks");
    if (!f) return NULL;
    int n = (int)PySequence_Fast_GET_SIZE(f), r[MAX_HAND];
    if (n < 2 || n > MAX_HAND) { Py_DECREF(f); return PyLong_FromLong(-1); }
    for (int i = 0; i < n; i++) r[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
    Py_DECREF(f);
    return PyLong_FromLong(hand(r, n));
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, "Set the board geometry."},
    {"generate", py_generate, METH_VARARGS, "Every legal play of a non-empty board."},
    {"best", py_best, METH_VARARGS, "The highest score of any play of a non-empty board, or -1."},
    {"best_equity", py_best_equity, METH_VARARGS,
     "The play with the highest total + leave value of a non-empty board, or None."},
    {"hand", py_hand, METH_VARARGS, "A hand's total, or -1 when it is not a valid hand."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_fastgen_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__fastgen_core(void) { return PyModule_Create(&moduledef); }
