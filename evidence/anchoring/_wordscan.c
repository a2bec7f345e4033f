/* The revision index's inner loop (evidence/anchoring/wordset.py): which of a set of wanted
   words occur as whole words in a text, and which texts hold each, without making a Python
   object for each word of the text. wordset.PyWordSet is the reference; tests hold the two equal.

   A text's words are the runs of identifier characters [A-Za-z0-9_] and non-ASCII bytes, parted
   by any other byte and by the UTF-8 typographic quote marks, as wordset.blanked makes them. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* SipHash-1-3, keyed per set: the words come from untrusted reports and repositories, and a
   fixed hash would let them be chosen to collide. */
#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                              \
    do {                                                                      \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);             \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);             \
    } while (0)

static uint64_t siphash13(uint64_t k0, uint64_t k1, const unsigned char *p, size_t n) {
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
    uint64_t last = ((uint64_t)n) << 56, m;
    size_t left = n & 7;
    const unsigned char *end = p + n - left;
    for (; p != end; p += 8) {
        memcpy(&m, p, 8);
        v3 ^= m; SIPROUND; v0 ^= m;
    }
    for (size_t i = 0; i < left; i++) last |= ((uint64_t)p[i]) << (8 * i);
    v3 ^= last; SIPROUND; v0 ^= last;
    v2 ^= 0xff; SIPROUND; SIPROUND; SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

enum { SEPARATOR, WORD, MAYBE_MARK };
static unsigned char byte_class[256];

/* a typographic quote mark (U+201C-201F, U+2033, U+2018-201B) starts at s[i] */
static inline int is_mark(const unsigned char *s, size_t i, size_t n) {
    if (s[i] != 0xE2 || i + 2 >= n || s[i + 1] != 0x80) return 0;
    switch (s[i + 2]) {
    case 0x9C: case 0x9D: case 0x9E: case 0x9F: case 0xB3:
    case 0x98: case 0x99: case 0x9A: case 0x9B: return 1;
    default: return 0;
    }
}

/* Most words of a text are no wanted word; a bit per word's first and last 8 bytes and length
   tells most of them apart before any hashing. */
#define BLOOM_BITS (1u << 20)

/* the first `part` (1-8) bytes at p as a number, byte k in bits 8k; `end` ends the buffer */
static inline uint64_t leading(const unsigned char *p, size_t part, const unsigned char *end) {
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (end - p >= 8) { /* one load, not a call to memcpy of a varying size */
        memcpy(&v, p, 8);
        return part < 8 ? v & (((uint64_t)1 << (8 * part)) - 1) : v;
    }
#else
    (void)end;
#endif
    for (size_t k = 0; k < part; k++) v |= (uint64_t)p[k] << (8 * k);
    return v;
}

static inline size_t bloom_bit(const unsigned char *w, size_t n, const unsigned char *end) {
    size_t part = n < 8 ? n : 8;
    uint64_t head = leading(w, part, end), tail = n > 8 ? leading(w + n - 8, 8, end) : head;
    uint64_t key = (head * 0x9E3779B97F4A7C15ULL) ^ ((tail + n) * 0xC2B2AE3D27D4EB4FULL);
    return (size_t)(key >> 44) & (BLOOM_BITS - 1);
}

typedef struct {
    PyObject_HEAD
    uint64_t k0, k1;
    size_t mask;        /* the number of slots less one; slots are a power of two, under half full */
    PyObject **words;   /* per slot: a bytes object, or NULL */
    uint64_t *hashes;
    unsigned char *stopped; /* per slot: no longer looked for */
    uint32_t *seen;     /* per slot: the number of the last text its word was found in */
    uint32_t text;      /* the number of the text being scanned */
    uint64_t *bloom;    /* BLOOM_BITS bits: each looked-for word's bloom_bit set */
    size_t bloom_stale; /* words stopped since the bloom was made (it still lets them by) */
    size_t *found;      /* the slots of the words found in the text being scanned */
    size_t found_count, found_room;
    uint32_t cap;       /* record: a word in this many texts is looked for no more */
    uint32_t **numbers; /* record: per slot, the numbers of the texts holding its word */
    uint32_t *counts, *rooms;
} WordSet;

static void wordset_dealloc(WordSet *self) {
    for (size_t i = 0; self->words && i <= self->mask; i++) Py_XDECREF(self->words[i]);
    for (size_t i = 0; self->numbers && i <= self->mask; i++) PyMem_Free(self->numbers[i]);
    PyMem_Free(self->words);
    PyMem_Free(self->hashes);
    PyMem_Free(self->stopped);
    PyMem_Free(self->found);
    PyMem_Free(self->numbers);
    PyMem_Free(self->counts);
    PyMem_Free(self->rooms);
    PyMem_Free(self->seen);
    PyMem_Free(self->bloom);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* the slot holding the word p[:n], or the free slot it would take (there is always one) */
static size_t find_slot(WordSet *self, const unsigned char *p, size_t n, uint64_t h, int *found) {
    size_t i = (size_t)h & self->mask;
    for (;;) {
        PyObject *w = self->words[i];
        if (w == NULL) {
            *found = 0;
            return i;
        }
        if (self->hashes[i] == h && (size_t)PyBytes_GET_SIZE(w) == n
            && memcmp(PyBytes_AS_STRING(w), p, n) == 0) {
            *found = 1;
            return i;
        }
        i = (i + 1) & self->mask;
    }
}

static void make_bloom(WordSet *self) {
    memset(self->bloom, 0, BLOOM_BITS / 8);
    for (size_t i = 0; i <= self->mask; i++) {
        PyObject *w = self->words[i];
        if (w == NULL || self->stopped[i] || PyBytes_GET_SIZE(w) == 0) continue;
        const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(w);
        size_t n = (size_t)PyBytes_GET_SIZE(w), b = bloom_bit(p, n, p + n);
        self->bloom[b >> 6] |= (uint64_t)1 << (b & 63);
    }
    self->bloom_stale = 0;
}

/* a stopped word only costs a hash while the bloom lets it by: it is made again after some */
#define BLOOM_STALE 16

static int wordset_init(WordSet *self, PyObject *args, PyObject *kwds) {
    PyObject *iterable;
    unsigned long long k0, k1;
    unsigned int cap = UINT32_MAX;
    static char *kwlist[] = {"words", "k0", "k1", "cap", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKK|I", kwlist, &iterable, &k0, &k1, &cap))
        return -1;
    if (self->words) {
        PyErr_SetString(PyExc_TypeError, "a WordSet is made once");
        return -1;
    }
    PyObject *seq = PySequence_Fast(iterable, "words must be iterable");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    size_t slots = 8;
    while (slots < (size_t)count * 2 + 1) slots <<= 1;
    self->k0 = k0;
    self->k1 = k1;
    self->mask = slots - 1;
    self->text = 0;
    self->cap = cap ? (uint32_t)cap : 1;
    self->words = PyMem_Calloc(slots, sizeof(PyObject *));
    self->hashes = PyMem_Calloc(slots, sizeof(uint64_t));
    self->stopped = PyMem_Calloc(slots, 1);
    self->seen = PyMem_Calloc(slots, sizeof(uint32_t));
    self->bloom = PyMem_Calloc(BLOOM_BITS / 64, sizeof(uint64_t));
    self->numbers = PyMem_Calloc(slots, sizeof(uint32_t *));
    self->counts = PyMem_Calloc(slots, sizeof(uint32_t));
    self->rooms = PyMem_Calloc(slots, sizeof(uint32_t));
    if (!self->words || !self->hashes || !self->stopped || !self->seen || !self->bloom
        || !self->numbers || !self->counts || !self->rooms) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t j = 0; j < count; j++) {
        PyObject *w = PySequence_Fast_GET_ITEM(seq, j);
        if (!PyBytes_CheckExact(w)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "words must be bytes");
            return -1;
        }
        const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(w);
        size_t n = (size_t)PyBytes_GET_SIZE(w);
        uint64_t h = siphash13(self->k0, self->k1, p, n);
        int found;
        size_t i = find_slot(self, p, n, h, &found);
        if (!found) {
            Py_INCREF(w);
            self->words[i] = w;
            self->hashes[i] = h;
        }
    }
    Py_DECREF(seq);
    make_bloom(self);
    return 0;
}

/* one word of a text, s[start:end]: its slot noted if it is looked for and not yet found in
   this text; -1 when out of memory */
static inline int take(WordSet *self, const unsigned char *s, size_t n, size_t start, size_t end) {
    const unsigned char *w = s + start;
    size_t len = end - start, bit = bloom_bit(w, len, s + n);
    if (!(self->bloom[bit >> 6] >> (bit & 63) & 1)) return 0;
    int found;
    size_t slot = find_slot(self, w, len, siphash13(self->k0, self->k1, w, len), &found);
    if (!found || self->stopped[slot] || self->seen[slot] == self->text) return 0;
    self->seen[slot] = self->text;
    if (self->found_count == self->found_room) {
        size_t room = self->found_room ? self->found_room * 2 : 64;
        size_t *grown = PyMem_Realloc(self->found, room * sizeof(size_t));
        if (!grown) return -1;
        self->found = grown;
        self->found_room = room;
    }
    self->found[self->found_count++] = slot;
    return 0;
}

/* the words of s[:n], a byte at a time, typographic marks parting words */
static int scan_bytes(WordSet *self, const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = byte_class[s[i]];
        if (c == SEPARATOR) {
            i++;
            continue;
        }
        if (c == MAYBE_MARK && is_mark(s, i, n)) {
            i += 3;
            continue;
        }
        size_t start = i++;
        for (; i < n; i++) {
            c = byte_class[s[i]];
            if (c == WORD) continue;
            if (c == SEPARATOR || is_mark(s, i, n)) break;
        }
        if (take(self, s, n, start, i) < 0) return -1;
    }
    return 0;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* bit k set when p[k] is a word byte (identifier character or non-ASCII), for 16 bytes */
static inline uint32_t word_bits(const unsigned char *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* A-Z to a-z, a-z unchanged */
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
    __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
    __m128i ascii_word = _mm_or_si128(_mm_or_si128(digit, letter), under);
    /* non-ASCII bytes are negative as signed bytes, so out of the ranges above: their top
       bits are the movemask of v itself */
    return (uint32_t)(_mm_movemask_epi8(ascii_word) | _mm_movemask_epi8(v));
}

/* the words of s[:n] (no typographic mark in it), found from where word bytes begin and end */
static int scan_blocks(WordSet *self, const unsigned char *s, size_t n) {
    unsigned char last[16];
    uint32_t in_word = 0;
    size_t start = 0;
    for (size_t base = 0; base < n; base += 16) {
        uint32_t bits;
        if (n - base >= 16) {
            bits = word_bits(s + base);
        } else { /* the last bytes, padded with blanks */
            memset(last, ' ', sizeof last);
            memcpy(last, s + base, n - base);
            bits = word_bits(last);
        }
        uint32_t before = (bits << 1 | in_word) & 0xFFFF; /* bit k: byte k - 1 was a word's */
        uint32_t starts = bits & ~before, ends = ~bits & before & 0xFFFF;
        while (starts | ends) { /* a word's start and end alternate */
            if (in_word) {
                size_t end = base + (size_t)__builtin_ctz(ends);
                ends &= ends - 1;
                in_word = 0;
                if (take(self, s, n, start, end) < 0) return -1;
            } else {
                start = base + (size_t)__builtin_ctz(starts);
                starts &= starts - 1;
                in_word = 1;
            }
        }
        in_word = bits >> 15 & 1;
    }
    if (in_word && take(self, s, n, start, n) < 0) return -1;
    return 0;
}
#endif

/* the slots of the looked-for words of a text (a bytes-like object) into self->found; -1 with
   an exception set on failure */
static int scan(WordSet *self, PyObject *arg) {
    if (!self->words) {
        PyErr_SetString(PyExc_TypeError, "WordSet.__init__ was not called");
        return -1;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return -1;
    if (self->bloom_stale >= BLOOM_STALE) make_bloom(self);
    if (++self->text == 0) { /* wrapped: no slot may look seen in this text */
        memset(self->seen, 0, (self->mask + 1) * sizeof(uint32_t));
        self->text = 1;
    }
    self->found_count = 0;
    const unsigned char *s = view.buf;
    size_t n = (size_t)view.len;
    int failed;
#ifdef __SSE2__
    if (memchr(s, 0xE2, n) == NULL) /* no typographic mark: 16 bytes at a time */
        failed = scan_blocks(self, s, n);
    else
#endif
        failed = scan_bytes(self, s, n);
    PyBuffer_Release(&view);
    if (failed) PyErr_NoMemory();
    return failed;
}

static void stop(WordSet *self, size_t slot) {
    self->stopped[slot] = 1;
    self->bloom_stale++;
}

static PyObject *wordset_hits(WordSet *self, PyObject *arg) {
    if (scan(self, arg) < 0) return NULL;
    PyObject *result = PyList_New((Py_ssize_t)self->found_count);
    if (!result) return NULL;
    for (size_t k = 0; k < self->found_count; k++) {
        PyObject *word = self->words[self->found[k]];
        Py_INCREF(word);
        PyList_SET_ITEM(result, (Py_ssize_t)k, word);
    }
    return result;
}

static PyObject *wordset_record(WordSet *self, PyObject *args) {
    PyObject *data;
    Py_ssize_t number;
    if (!PyArg_ParseTuple(args, "On", &data, &number)) return NULL;
    if (number < 0 || (uint64_t)number > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a text's number is from 0 to 2**32 - 1");
        return NULL;
    }
    if (scan(self, data) < 0) return NULL;
    for (size_t k = 0; k < self->found_count; k++) {
        size_t slot = self->found[k];
        if (self->counts[slot] == self->rooms[slot]) {
            uint32_t room = self->rooms[slot] ? self->rooms[slot] * 2 : 4;
            uint32_t *grown = PyMem_Realloc(self->numbers[slot], room * sizeof(uint32_t));
            if (!grown) return PyErr_NoMemory();
            self->numbers[slot] = grown;
            self->rooms[slot] = room;
        }
        self->numbers[slot][self->counts[slot]++] = (uint32_t)number;
        if (self->counts[slot] >= self->cap) stop(self, slot);
    }
    Py_RETURN_NONE;
}

static PyObject *wordset_postings(WordSet *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *result = PyDict_New();
    for (size_t i = 0; result && self->words && i <= self->mask; i++) {
        if (!self->counts[i]) continue;
        PyObject *list = PyList_New(self->counts[i]);
        for (uint32_t k = 0; list && k < self->counts[i]; k++) {
            PyObject *number = PyLong_FromUnsignedLong(self->numbers[i][k]);
            if (!number) Py_CLEAR(list);
            else PyList_SET_ITEM(list, k, number);
        }
        if (!list || PyDict_SetItem(result, self->words[i], list) < 0) Py_CLEAR(result);
        Py_XDECREF(list);
    }
    return result;
}

static PyObject *wordset_discard(WordSet *self, PyObject *word) {
    if (!self->words) {
        PyErr_SetString(PyExc_TypeError, "WordSet.__init__ was not called");
        return NULL;
    }
    if (!PyBytes_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "a word is bytes");
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(word);
    size_t n = (size_t)PyBytes_GET_SIZE(word);
    int found;
    size_t i = find_slot(self, p, n, siphash13(self->k0, self->k1, p, n), &found);
    if (found) stop(self, i);
    Py_RETURN_NONE;
}

static PyMethodDef wordset_methods[] = {
    {"hits", (PyCFunction)wordset_hits, METH_O,
     "The set's words that are words of a text (bytes), each once, in the text's order."},
    {"discard", (PyCFunction)wordset_discard, METH_O, "Look for a word no more."},
    {"record", (PyCFunction)wordset_record, METH_VARARGS,
     "record(text, number): add `number` to the texts of each looked-for word of `text`; a word\n"
     "in `cap` texts is looked for no more."},
    {"postings", (PyCFunction)wordset_postings, METH_NOARGS,
     "The numbers of the texts recorded holding each word, for the words in any."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WordSetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_wordscan.WordSet",
    .tp_basicsize = sizeof(WordSet),
    .tp_dealloc = (destructor)wordset_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "WordSet(words, k0, k1, cap=2**32-1): wanted words (bytes), found as whole words\n"
              "of texts.",
    .tp_methods = wordset_methods,
    .tp_init = (initproc)wordset_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef wordscan_module = {
    PyModuleDef_HEAD_INIT, "_wordscan", "The revision index's scan of a text, compiled.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__wordscan(void) {
    for (int b = 0; b < 256; b++) {
        int word = b >= 128 || b == '_' || (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z')
                   || (b >= 'a' && b <= 'z');
        byte_class[b] = b == 0xE2 ? MAYBE_MARK : word ? WORD : SEPARATOR;
    }
    if (PyType_Ready(&WordSetType) < 0) return NULL;
    PyObject *module = PyModule_Create(&wordscan_module);
    if (!module) return NULL;
    /* wordset.py uses a module of this version only: a checkout's module built from an older
       source is passed over, not called with methods it lacks */
    if (PyModule_AddIntConstant(module, "VERSION", 1) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&WordSetType);
    if (PyModule_AddObject(module, "WordSet", (PyObject *)&WordSetType) < 0) {
        Py_DECREF(&WordSetType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
