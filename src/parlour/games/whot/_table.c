/* The hot path of `WhotTable` (encoding.py) in C: following the two commonest moves and
 * gathering a seat's observation.
 *
 * Why C: a PettingZoo step of plain Whot! (storey-1935) spends more time keeping the table's
 * vector up to date and copying a seat's observation out of it than the engine spends on the
 * move itself, and in Python those are a hundred bytecodes a move (docs/adapters.md, "Speed").
 *
 * `TableCore` is the base of `FastWhotTable`, a `WhotTable` whose `observe(seat)` and `follow()`
 * are these. They follow one card drawn (any rules) and one card played under plain rules, and
 * hand every other move to the Python `_catch_up()`, before writing anything. The followed
 * values (`moves_seen`, `call_card`, ...) are this struct's members, so the Python paths read
 * and write the same ones. `tests/adapters/test_adapters_observers.py` holds both tables equal
 * to the full encoding of every seat, move by move.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    /* followed values (members: the Python paths write them too) */
    Py_ssize_t moves_seen;
    Py_ssize_t events_seen;
    int call_card;
    int call_symbol;
    int pack_next;
    int pending_pick;
    int pick_number;
    char pack_public;
    char plain;
    /* what `_bind` copied in */
    int bound;
    PyObject *st;
    PyObject *array;
    Py_buffer buf;
    float *v;
    Py_ssize_t length;
    int n;
    Py_ssize_t *rows; /* n * 3: a seat's hand row, known row and count */
    Py_ssize_t pile_at, call_card_at, call_symbol_at, pack_count_at, pending_pick_at,
        pick_number_at, pack_next_at, to_play_at;
    Py_ssize_t size; /* an observation's length */
    /* Each seat's gather when it is to play (seat s: runs[s]) and when it is not (runs[n + s]),
     * as runs of consecutive entries: (where in the observation, where in the table, how many)
     * triples, ending with a run of length 0. Most of an observation is whole fields copied as
     * they are, so a gather is a dozen copies rather than an indexed read an entry. */
    Py_ssize_t **runs;
    int *card_at;
    Py_ssize_t cards;
    PyObject *drew_type;
    PyObject *played_type;
    PyObject *empty;      /* numpy.empty */
    PyObject *empty_args; /* ((BLOCK, size), float32) */
    /* Observations are handed out as the rows of a block made BLOCK at a time: a row (a view,
     * never written again once handed out) costs a third of a new array and its buffer. */
    PyObject *block;
    Py_buffer block_buf;
    Py_ssize_t next_row;
} TableCore;

#define BLOCK 64

static PyObject *s_history, *s_events, *s_hands, *s_pack, *s_call_sym, *s_free, *s_current,
    *s_card, *s_rare, *s_values, *s_catch_up;

/* A card's column, or -1 for anything that is not a card of the pack. */
static int
card_column(TableCore *t, PyObject *card)
{
    long c = PyLong_AsLong(card);
    if (c == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return (c >= 0 && c < t->cards) ? t->card_at[c] : -1;
}

/* A list attribute of the state (a new reference), or NULL with nothing raised if it is not a
 * list (then the Python path decides). */
static PyObject *
state_list(TableCore *t, PyObject *name, int *error)
{
    PyObject *x = PyObject_GetAttr(t->st, name);
    if (x == NULL) {
        *error = 1;
        return NULL;
    }
    if (!PyList_Check(x)) {
        Py_DECREF(x);
        return NULL;
    }
    return x;
}

static long
state_long(TableCore *t, PyObject *name, int *error)
{
    PyObject *x = PyObject_GetAttr(t->st, name);
    if (x == NULL) {
        *error = 1;
        return 0;
    }
    long r = PyLong_AsLong(x);
    Py_DECREF(x);
    if (r == -1 && PyErr_Occurred())
        *error = 1;
    return r;
}

/* One card drawn, the move's only event: the last card of the hand. 0 done, 1 not this path. */
static int
drew_one(TableCore *t, PyObject *ev, Py_ssize_t moves)
{
    long p = PyLong_AsLong(PyTuple_GET_ITEM(ev, 0));
    long k = PyLong_AsLong(PyTuple_GET_ITEM(ev, 1));
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 1;
    }
    if (k != 1 || p < 0 || p >= t->n)
        return 1;
    int error = 0;
    PyObject *hands = state_list(t, s_hands, &error);
    if (hands == NULL)
        return error ? -1 : 1;
    PyObject *hand = PyList_GET_SIZE(hands) > p ? PyList_GET_ITEM(hands, p) : NULL;
    if (hand == NULL || !PyList_Check(hand) || PyList_GET_SIZE(hand) == 0) {
        Py_DECREF(hands);
        return 1;
    }
    Py_ssize_t held = PyList_GET_SIZE(hand);
    int i = card_column(t, PyList_GET_ITEM(hand, held - 1));
    Py_DECREF(hands);
    if (i < 0)
        return 1;
    PyObject *pack = state_list(t, s_pack, &error);
    if (pack == NULL)
        return error ? -1 : 1;
    Py_ssize_t left = PyList_GET_SIZE(pack);
    int next = -1;
    if (t->pack_public && left)
        next = card_column(t, PyList_GET_ITEM(pack, left - 1));
    Py_DECREF(pack);

    float *v = t->v;
    const Py_ssize_t *row = t->rows + 3 * p;
    v[row[0] + i] += 1;
    v[row[2]] = (float)held;
    v[t->pack_count_at] = (float)left;
    if (t->pack_public) { /* (and still: no refill) */
        v[row[1] + i] += 1;
        if (t->pack_next >= 0)
            v[t->pack_next_at + t->pack_next] = 0;
        if (next >= 0)
            v[t->pack_next_at + next] = 1;
        t->pack_next = next;
    }
    if (t->pending_pick) {
        v[t->pending_pick_at] = 0;
        t->pending_pick = 0;
        v[t->pick_number_at] = 0;
        t->pick_number = 0;
    }
    t->events_seen += 1;
    t->moves_seen = moves;
    return 0;
}

/* One plain card played (plain rules), the move's only event. 0 done, 1 not this path. */
static int
played_one(TableCore *t, PyObject *self, PyObject *ev, Py_ssize_t moves)
{
    long p = PyLong_AsLong(PyTuple_GET_ITEM(ev, 0));
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 1;
    }
    if (p < 0 || p >= t->n)
        return 1;
    PyObject *card = PyObject_GetAttr(PyTuple_GET_ITEM(ev, 1), s_card);
    if (card == NULL)
        return -1;
    int i = card_column(t, card);
    Py_DECREF(card);
    if (i < 0)
        return 1;
    int error = 0;
    PyObject *hands = state_list(t, s_hands, &error);
    if (hands == NULL)
        return error ? -1 : 1;
    PyObject *hand = PyList_GET_SIZE(hands) > p ? PyList_GET_ITEM(hands, p) : NULL;
    if (hand == NULL || !PyList_Check(hand)) {
        Py_DECREF(hands);
        return 1;
    }
    Py_ssize_t held = PyList_GET_SIZE(hand);
    Py_DECREF(hands);
    long symbol = state_long(t, s_call_sym, &error);
    if (error)
        return -1;

    float *v = t->v;
    const Py_ssize_t *row = t->rows + 3 * p;
    v[row[0] + i] -= 1;
    if (v[row[1] + i] != 0) /* (the engine forgets a known card played, if it knew it) */
        v[row[1] + i] -= 1;
    v[t->pile_at + i] += 1;
    v[row[2]] = (float)held;
    if (t->call_card >= 0)
        v[t->call_card_at + t->call_card] = 0;
    v[t->call_card_at + i] = 1;
    t->call_card = i;
    if (symbol != t->call_symbol) {
        if (t->call_symbol >= 0)
            v[t->call_symbol_at + t->call_symbol] = 0;
        if (symbol >= 0)
            v[t->call_symbol_at + symbol] = 1;
        t->call_symbol = (int)symbol;
    }
    /* Under plain rules only the first card of the game changes more: `free`. */
    PyObject *free_ = PyObject_GetAttr(t->st, s_free);
    if (free_ == NULL)
        return -1;
    PyObject *rare = PyObject_GetAttr(self, s_rare);
    if (rare == NULL) {
        Py_DECREF(free_);
        return -1;
    }
    int changed = 1;
    if (PyTuple_Check(rare) && PyTuple_GET_SIZE(rare) > 0)
        changed = PyObject_RichCompareBool(free_, PyTuple_GET_ITEM(rare, 0), Py_NE);
    Py_DECREF(free_);
    Py_DECREF(rare);
    if (changed < 0)
        return -1;
    if (changed) {
        PyObject *r = PyObject_CallMethodNoArgs(self, s_values);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    t->events_seen += 1;
    t->moves_seen = moves;
    return 0;
}

/* Catch up with the moves made since the last look: -1 error, 0 done. */
static int
catch_up(TableCore *t, PyObject *self)
{
    int error = 0;
    PyObject *history = state_list(t, s_history, &error);
    if (history == NULL && error)
        return -1;
    int r = 1;
    if (history != NULL) {
        Py_ssize_t moves = PyList_GET_SIZE(history);
        Py_DECREF(history);
        if (moves == t->moves_seen)
            return 0;
        if (moves == t->moves_seen + 1) {
            PyObject *events = state_list(t, s_events, &error);
            if (events == NULL && error)
                return -1;
            if (events != NULL) {
                Py_ssize_t seen = PyList_GET_SIZE(events);
                if (seen == t->events_seen + 1) {
                    PyObject *ev = PyList_GET_ITEM(events, seen - 1);
                    PyObject *kind = (PyObject *)Py_TYPE(ev);
                    if (kind == t->drew_type && PyTuple_GET_SIZE(ev) >= 2)
                        r = drew_one(t, ev, moves);
                    else if (kind == t->played_type && t->plain && PyTuple_GET_SIZE(ev) >= 2)
                        r = played_one(t, self, ev, moves);
                }
                Py_DECREF(events);
            }
        }
    }
    if (r <= 0)
        return r;
    PyObject *done = PyObject_CallMethodNoArgs(self, s_catch_up); /* every other move */
    if (done == NULL)
        return -1;
    Py_DECREF(done);
    return 0;
}

static PyObject *
TableCore_follow(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    TableCore *t = (TableCore *)self;
    if (!t->bound) {
        PyErr_SetString(PyExc_RuntimeError, "TableCore used before _bind()");
        return NULL;
    }
    if (catch_up(t, self) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static void
drop_block(TableCore *t)
{
    if (t->block != NULL)
        PyBuffer_Release(&t->block_buf);
    Py_CLEAR(t->block);
}

/* A new block of BLOCK rows for the next observations (the last one's rows live on in the
 * hands of whoever kept them). */
static int
new_block(TableCore *t)
{
    drop_block(t);
    PyObject *block = PyObject_Call(t->empty, t->empty_args, NULL);
    if (block == NULL)
        return -1;
    if (PyObject_GetBuffer(block, &t->block_buf, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(block);
        return -1;
    }
    if (t->block_buf.len != BLOCK * t->size * (Py_ssize_t)sizeof(float)) {
        PyBuffer_Release(&t->block_buf);
        Py_DECREF(block);
        PyErr_SetString(PyExc_RuntimeError, "a block of observations is not float32 rows");
        return -1;
    }
    t->block = block;
    t->next_row = 0;
    return 0;
}

static PyObject *
TableCore_observe(PyObject *self, PyObject *arg)
{
    TableCore *t = (TableCore *)self;
    if (!t->bound) {
        PyErr_SetString(PyExc_RuntimeError, "TableCore used before _bind()");
        return NULL;
    }
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= t->n) {
        PyErr_Format(PyExc_IndexError, "no seat %ld at a table of %d", seat, t->n);
        return NULL;
    }
    if (catch_up(t, self) < 0)
        return NULL;
    PyObject *current = PyObject_GetAttr(t->st, s_current);
    if (current == NULL)
        return NULL;
    long p = -1; /* (None once the game is over) */
    if (current != Py_None) {
        p = PyLong_AsLong(current);
        if (p == -1 && PyErr_Occurred()) {
            Py_DECREF(current);
            return NULL;
        }
    }
    Py_DECREF(current);
    if (t->block == NULL || t->next_row == BLOCK) {
        if (new_block(t) < 0)
            return NULL;
    }
    PyObject *obs = PySequence_GetItem(t->block, t->next_row);
    if (obs == NULL)
        return NULL;
    float *o = (float *)t->block_buf.buf + t->next_row * t->size;
    t->next_row += 1;
    const float *v = t->v;
    for (const Py_ssize_t *r = t->runs[p == seat ? seat : t->n + seat]; r[2]; r += 3)
        memcpy(o + r[0], v + r[1], r[2] * sizeof(float));
    if (p >= 0 && p != seat)
        o[t->to_play_at + ((p - seat) % t->n + t->n) % t->n] = 1;
    return obs;
}

/* The runs (see TableCore.runs) of one gather: `size` table entries, intp, each in the table. */
static Py_ssize_t *
runs_of(PyObject *gather, Py_ssize_t size, Py_ssize_t length)
{
    Py_buffer b;
    if (PyObject_GetBuffer(gather, &b, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    Py_ssize_t *runs = NULL;
    const Py_ssize_t *x = (const Py_ssize_t *)b.buf;
    int ok = b.itemsize == sizeof(Py_ssize_t) && b.len == size * b.itemsize;
    for (Py_ssize_t k = 0; ok && k < size; k++)
        ok = x[k] >= 0 && x[k] < length;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a gather is not intp entries of the table");
        goto done;
    }
    runs = PyMem_Malloc(sizeof(Py_ssize_t) * 3 * (size + 1)); /* (at most one run an entry) */
    if (runs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        if (m && runs[3 * (m - 1)] + runs[3 * (m - 1) + 2] == k &&
            runs[3 * (m - 1) + 1] + runs[3 * (m - 1) + 2] == x[k]) {
            runs[3 * (m - 1) + 2] += 1;
        } else {
            runs[3 * m] = k;
            runs[3 * m + 1] = x[k];
            runs[3 * m + 2] = 1;
            m += 1;
        }
    }
    runs[3 * m] = runs[3 * m + 1] = runs[3 * m + 2] = 0;
done:
    PyBuffer_Release(&b);
    return runs;
}

static void
free_runs(TableCore *t)
{
    if (t->runs != NULL) {
        for (int k = 0; k < 2 * t->n; k++)
            PyMem_Free(t->runs[k]);
        PyMem_Free(t->runs);
    }
    t->runs = NULL;
}

/* Each seat's two gathers (lists of n intp vectors) as runs. */
static int
bind_runs(TableCore *t, PyObject *index, PyObject *waiting)
{
    if (PyList_GET_SIZE(index) != t->n || PyList_GET_SIZE(waiting) != t->n) {
        PyErr_SetString(PyExc_ValueError, "one gather a seat");
        return -1;
    }
    t->runs = PyMem_Calloc(2 * (t->n ? t->n : 1), sizeof(Py_ssize_t *));
    if (t->runs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < 2 * t->n; k++) {
        PyObject *g = k < t->n ? PyList_GET_ITEM(index, k) : PyList_GET_ITEM(waiting, k - t->n);
        t->runs[k] = runs_of(g, t->size, t->length);
        if (t->runs[k] == NULL)
            return -1;
    }
    return 0;
}

static void
unbind(TableCore *t)
{
    if (t->bound)
        PyBuffer_Release(&t->buf);
    t->bound = 0;
    t->v = NULL;
    free_runs(t);
    PyMem_Free(t->rows);
    PyMem_Free(t->card_at);
    t->rows = NULL;
    t->card_at = NULL;
}

static int
TableCore_clear(PyObject *self)
{
    TableCore *t = (TableCore *)self;
    unbind(t);
    drop_block(t);
    Py_CLEAR(t->st);
    Py_CLEAR(t->array);
    Py_CLEAR(t->drew_type);
    Py_CLEAR(t->played_type);
    Py_CLEAR(t->empty);
    Py_CLEAR(t->empty_args);
    return 0;
}

static int
TableCore_traverse(PyObject *self, visitproc visit, void *arg)
{
    TableCore *t = (TableCore *)self;
    Py_VISIT(t->st);
    Py_VISIT(t->array);
    Py_VISIT(t->drew_type);
    Py_VISIT(t->played_type);
    Py_VISIT(t->empty);
    Py_VISIT(t->empty_args);
    Py_VISIT(t->block);
    return 0;
}

static void
TableCore_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    TableCore_clear(self);
    Py_TYPE(self)->tp_free(self);
}

/* _bind(state, table, rows, offsets, index, index_waiting, card_at, drew_type, played_type,
 *       empty, float32): what the hot path reads, from the Python table's own. */
static PyObject *
TableCore_bind(PyObject *self, PyObject *args)
{
    TableCore *t = (TableCore *)self;
    PyObject *st, *array, *rows, *offsets, *index, *waiting, *card_at, *drew, *played, *empty,
        *dtype;
    if (!PyArg_ParseTuple(args, "OOO!O!O!O!O!OOOO:_bind", &st, &array, &PyList_Type, &rows,
                          &PyTuple_Type, &offsets, &PyList_Type, &index, &PyList_Type, &waiting,
                          &PyList_Type, &card_at, &drew, &played, &empty, &dtype))
        return NULL;
    TableCore_clear(self);
    Py_buffer buf;
    if (PyObject_GetBuffer(array, &buf, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (buf.itemsize != sizeof(float) || buf.format == NULL || strcmp(buf.format, "f") != 0) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "the table must be a float32 vector");
        return NULL;
    }
    t->buf = buf;
    t->bound = 1;
    t->v = (float *)buf.buf;
    t->length = buf.len / buf.itemsize;
    t->n = (int)PyList_GET_SIZE(rows);
    Py_ssize_t *at[] = {&t->pile_at,         &t->call_card_at,   &t->call_symbol_at,
                        &t->pack_count_at,   &t->pending_pick_at, &t->pick_number_at,
                        &t->pack_next_at,    &t->to_play_at,     &t->size};
    Py_ssize_t wanted = (Py_ssize_t)(sizeof(at) / sizeof(at[0]));
    if (PyTuple_GET_SIZE(offsets) != wanted) {
        PyErr_Format(PyExc_ValueError, "%zd offsets wanted", wanted);
        goto fail;
    }
    for (Py_ssize_t k = 0; k < wanted; k++) {
        *at[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(offsets, k));
        if (PyErr_Occurred())
            goto fail;
        if (*at[k] < 0 || *at[k] > t->length) {
            PyErr_SetString(PyExc_ValueError, "an offset outside the table");
            goto fail;
        }
    }
    t->rows = PyMem_Malloc(sizeof(Py_ssize_t) * 3 * (t->n ? t->n : 1));
    if (t->rows == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int q = 0; q < t->n; q++) {
        PyObject *row = PyList_GET_ITEM(rows, q);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 3) {
            PyErr_SetString(PyExc_ValueError, "a row is (hand_at, known_at, count_at)");
            goto fail;
        }
        for (int k = 0; k < 3; k++) {
            t->rows[3 * q + k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(row, k));
            if (PyErr_Occurred())
                goto fail;
        }
    }
    if (bind_runs(t, index, waiting) < 0)
        goto fail;
    t->cards = PyList_GET_SIZE(card_at);
    t->card_at = PyMem_Malloc(sizeof(int) * (t->cards ? t->cards : 1));
    if (t->card_at == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t c = 0; c < t->cards; c++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(card_at, c));
        if (PyErr_Occurred())
            goto fail;
        t->card_at[c] = (int)x;
    }
    PyObject *shape = Py_BuildValue("(nn)", (Py_ssize_t)BLOCK, t->size);
    if (shape == NULL)
        goto fail;
    t->empty_args = PyTuple_Pack(2, shape, dtype);
    Py_DECREF(shape);
    if (t->empty_args == NULL)
        goto fail;
    Py_INCREF(st);
    t->st = st;
    Py_INCREF(array);
    t->array = array;
    Py_INCREF(drew);
    t->drew_type = drew;
    Py_INCREF(played);
    t->played_type = played;
    Py_INCREF(empty);
    t->empty = empty;
    Py_RETURN_NONE;
fail:
    TableCore_clear(self);
    return NULL;
}

static PyMethodDef TableCore_methods[] = {
    {"observe", TableCore_observe, METH_O,
     "The seat's observation (a new float32 vector), after catching up with the moves made."},
    {"follow", TableCore_follow, METH_NOARGS,
     "Catch up with the moves made since the last look, building no observation."},
    {"_bind", TableCore_bind, METH_VARARGS, "Copy in what the hot path reads (see _table.c)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef TableCore_members[] = {
    {"moves_seen", T_PYSSIZET, offsetof(TableCore, moves_seen), 0, NULL},
    {"events_seen", T_PYSSIZET, offsetof(TableCore, events_seen), 0, NULL},
    {"call_card", T_INT, offsetof(TableCore, call_card), 0, NULL},
    {"call_symbol", T_INT, offsetof(TableCore, call_symbol), 0, NULL},
    {"pack_next", T_INT, offsetof(TableCore, pack_next), 0, NULL},
    {"pending_pick", T_INT, offsetof(TableCore, pending_pick), 0, NULL},
    {"pick_number", T_INT, offsetof(TableCore, pick_number), 0, NULL},
    {"pack_public", T_BOOL, offsetof(TableCore, pack_public), 0, NULL},
    {"plain", T_BOOL, offsetof(TableCore, plain), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject TableCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parlour.games.whot._table.TableCore",
    .tp_basicsize = sizeof(TableCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "WhotTable's hot path in C (see _table.c).",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = TableCore_dealloc,
    .tp_traverse = TableCore_traverse,
    .tp_clear = TableCore_clear,
    .tp_methods = TableCore_methods,
    .tp_members = TableCore_members,
};

static struct PyModuleDef table_module = {
    PyModuleDef_HEAD_INIT, "_table", "WhotTable's hot path in C (see _table.c).", -1, NULL,
};

#define INTERN(var, text)                                                                      \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                                      \
        return NULL;

PyMODINIT_FUNC
PyInit__table(void)
{
    INTERN(s_history, "history");
    INTERN(s_events, "events");
    INTERN(s_hands, "hands");
    INTERN(s_pack, "pack");
    INTERN(s_call_sym, "call_sym");
    INTERN(s_free, "free");
    INTERN(s_current, "current");
    INTERN(s_card, "card");
    INTERN(s_rare, "rare");
    INTERN(s_values, "_values");
    INTERN(s_catch_up, "_catch_up");
    if (PyType_Ready(&TableCoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&table_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TableCoreType);
    if (PyModule_AddObject(m, "TableCore", (PyObject *)&TableCoreType) < 0) {
        Py_DECREF(&TableCoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
