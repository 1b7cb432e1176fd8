/*
 * Exact perfect-information ("double-dummy") solver for Spades positions.
 *
 * Part of piki (AGPL-3.0-or-later).  Cards are ints 0..51, index = suit*13 + rank,
 * suits S=0 H=1 D=2 C=3, ranks 2..A = 0..12; a hand is a 52-bit mask.  Seats 0..3 play
 * clockwise.  Rules: spades are always trump; a spade may not be led before spades are broken
 * unless the leader holds only spades (under `allspade_lead_breaks` such a lead breaks
 * spades); discarding a spade on another suit breaks spades; follow suit if able.
 *
 * The value of a position is the number of the remaining tricks (the current one included)
 * won by the seats in `count`; the seats in `maxm` want it higher, the others lower.
 *
 * Search (after Bo Haglund's DDS): boolean alpha-beta on "value >= target" (a null window), the
 * exact value found by a few such tests, the first at a guess (the last value solved).
 *  - Transposition table at trick starts.  An entry holds a lower and an upper bound and the
 *    best lead for all positions with the same leader, spades_broken and suit lengths per hand
 *    whose cards, in each suit down to the lowest card whose rank mattered in the search
 *    ("winning ranks"), lie in the same hands; ranks are relative to the cards still out, so
 *    positions that differ in which small cards were played or where the irrelevant small cards
 *    sit share an entry.  A solve that keeps evicting its own entries (crossruffs) moves, with
 *    them, to a 4x table that files entries by more of the top cards (fewer per bucket).
 *  - Bounds at trick starts: a seat whose i-th highest spade has h higher spades against it
 *    takes i - h tricks (summed over the seats), and i - h' for its side of the count with h'
 *    the higher spades of the other side; partners holding the top two spades, with another
 *    spade besides, take two (when they want them); the leader's sure tricks (top cards nobody can
 *    ruff), also via an entry to the partner's.  Within a trick: the seat that can force the
 *    trick (its strongest legal card beats whatever the later seats can play) bounds the value.
 *  - The suit codes of the table's patterns are kept up to date as tricks complete.
 *  - Moves: one card per run of equivalent cards (adjacent in rank among the cards still out or
 *    in the trick); ordered by the table's best lead, leads by how many cards the opponents may
 *    answer them with (the fewer, the smaller the tree below), then simple card-play rules (win
 *    cheaply, second hand low, avoid leads into a ruff or a tenace).
 */
#ifndef BUCKET
#define BUCKET 64
#endif
#if BUCKET % 8 || BUCKET > 64
#error "BUCKET must be a multiple of 8, at most 64"
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* every x86-64 CPU of the last 15 years has POPCNT; PyInit checks it at import */
#pragma GCC target("popcnt")
#define NEED_POPCNT_CHECK 1
#elif defined(__x86_64__) && defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt"))), apply_to = function)
#define NEED_POPCNT_CHECK 1
#define CLANG_POP 1
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef uint64_t u64;

#define SUITBITS 0x1FFFULL
static const u64 SUITM[4] = {SUITBITS, SUITBITS << 13, SUITBITS << 26, SUITBITS << 39};
#define ALLCARDS ((1ULL << 52) - 1)
#define NONSPADES (ALLCARDS & ~SUITBITS)

static inline int popc(u64 x) { return __builtin_popcountll(x); }
static inline int hibit(u64 x) { return 63 - __builtin_clzll(x); }
static inline int lobit(u64 x) { return __builtin_ctzll(x); }

/* ------------------------------------------------------------------ transposition table */

/* An entry holds a bound valid for every position with the same leader, spades_broken and
 * suit lengths per hand (`key`) whose top cards of each suit, down to the lowest card that
 * mattered in the search ("winning ranks", as in DDS), belong to the same hands: per suit the
 * owner sequence of the remaining cards, highest first, 2 bits a card, left-aligned in 26 bits,
 * two suits per word; `k` gives the relevant prefix's length per suit and `v` its value. */
typedef struct {
    u64 key;         /* the lengths key, the generation in bits 55..63 */
    u64 v01, v23;
    uint16_t k;      /* the pattern's length per suit, 4 bits a suit: the masks m01, m23 (kmask) */
    int8_t lb, ub;   /* bounds on the counted tricks from this trick start */
    uint8_t move;    /* best lead: suit << 4 | index from the top among the suit's remaining cards; 0xFF none */
    uint8_t spec;    /* number of relevant cards (replacement: the most specific goes first) */
} TTE;               /* 32 bytes: an entry never straddles two cache lines */

/* the mask of the top k slots of a suit's 26-bit code */
static const u64 KM[14] = {0, 0x3000000, 0x3C00000, 0x3F00000, 0x3FC0000, 0x3FF0000, 0x3FFC000, 0x3FFF000,
                           0x3FFFC00, 0x3FFFF00, 0x3FFFFC0, 0x3FFFFF0, 0x3FFFFFC, 0x3FFFFFF};
static inline u64 kmask01(unsigned k) { return KM[k & 15] | (KM[(k >> 4) & 15] << 26); }
static inline u64 kmask23(unsigned k) { return KM[(k >> 8) & 15] | (KM[(k >> 12) & 15] << 26); }

/* 16-bit tags of the keys first, scanned (two cache lines) before any entry is read */
typedef struct {
    uint16_t tag[BUCKET];
    uint16_t rank[BUCKET]; /* replacement rank of each entry: the generation's low bits << 10 | tricks left << 6 | spec */
    TTE e[BUCKET];
} Bucket;

static inline uint16_t key_tag(u64 gkey) { return (uint16_t)((gkey * 0x9E3779B97F4A7C15ULL) >> 48) | 1; }

/* bit i set when tag[i] == t */
static inline u64 scan_tags(const uint16_t *tag, uint16_t t) {
    u64 hits = 0;
#if defined(__SSE2__) && BUCKET % 16 == 0
    /* two compares packed to bytes: one mask bit a tag */
    __m128i tv = _mm_set1_epi16((short)t);
    for (int j = 0; j < BUCKET / 16; j++) {
        __m128i x0 = _mm_loadu_si128((const __m128i *)(tag + 16 * j));
        __m128i x1 = _mm_loadu_si128((const __m128i *)(tag + 16 * j + 8));
        __m128i pk = _mm_packs_epi16(_mm_cmpeq_epi16(x0, tv), _mm_cmpeq_epi16(x1, tv));
        hits |= (u64)(unsigned)_mm_movemask_epi8(pk) << (16 * j);
    }
#elif defined(__SSE2__)
    __m128i tv = _mm_set1_epi16((short)t);
    for (int j = 0; j < BUCKET / 8; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(tag + 8 * j));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(x, tv));
        /* two mask bits a lane: keep the even ones and squeeze them together */
        m &= 0x5555;
        m = (m | (m >> 1)) & 0x3333;
        m = (m | (m >> 2)) & 0x0F0F;
        m = (m | (m >> 4)) & 0x00FF;
        hits |= (u64)m << (8 * j);
    }
#else
    for (int i = 0; i < BUCKET; i++) hits |= (u64)(tag[i] == t) << i;
#endif
    return hits;
}
#define GENSHIFT 55
/* 63: the replacement rank keeps the generation's low 6 bits, so with no more than 63 an old
 * entry never passes for the current solve's (the search does not depend on the solves before) */
#define GENMAX 63
/* The search runs without the GIL, so every thread that solves has its own table, counters and
 * first guesses (thread-local); only the wanted table size is shared. */
static __thread Bucket *tt = NULL;
static __thread void *tt_raw = NULL; /* the allocation tt lies in */
static __thread u64 tt_mask = 0; /* number of buckets - 1 */
static __thread uint32_t tt_gen = 0;
static __thread int tt_have = 0; /* log2 of this thread's table size */
static int tt_log2 = 13; /* buckets of 64 entries, 32 bytes an entry: 2^13 -> 18 MiB */
static __thread u64 st_probe = 0, st_hit = 0, st_evict = 0, st_store = 0, st_quick = 0;
/* A solve whose entries keep evicting others of the same solve (crossruff deals: many more
 * positions than the table holds) moves on to a larger table with finer classes (below); the
 * next solve starts in the usual one, which is faster for the other positions. */
#define DEEP 1      /* finer classes in the larger table: one, the owners of every suit's top 2 cards */
#define BIG_EXTRA 2 /* the larger table: 4x the buckets (72 MiB beside the usual 18, kept per thread) */
#define BIG_MAX_LOG2 16
static u64 tt_thrash = 100000; /* evictions within one solve that move it to the larger table */
static __thread Bucket *tt_small = NULL, *tt_big = NULL;
static __thread void *tt_big_raw = NULL;
static __thread u64 tt_small_mask = 0;
static __thread int tt_levels = 4, tt_big_have = 0, tt_want_big = 0, tt_tried_big = 0;
static __thread u64 evict_mark = 0; /* st_evict at the start of the current solve */
static __thread u64 store_mark = 0; /* st_store at the start of the current solve */
static __thread u64 st_grown = 0;    /* solves moved to the larger table */

/* a thread's table is freed when the thread ends (the key's destructor) */
static pthread_key_t tt_key;
static pthread_once_t tt_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t tt_big_key;
static void tt_key_make(void) { pthread_key_create(&tt_key, free); pthread_key_create(&tt_big_key, free); }

/* A table on 2 MiB boundaries, marked for huge pages where the kernel offers them (Linux's
 * transparent huge pages in "madvise" mode): the table is probed at random, and with 4 KiB pages
 * most probes would also miss the TLB.  Zeroed when `zero`. */
static void *table_alloc(size_t bytes, int zero) {
    void *p = NULL;
    size_t align = (size_t)1 << 21;
    if (posix_memalign(&p, bytes >= align ? align : 64, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= align) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    if (zero) memset(p, 0, bytes);
    return p;
}

static int tt_alloc(void) {
    if (tt && tt_have == tt_log2) return 0;
    pthread_once(&tt_key_once, tt_key_make);
    free(tt_raw);
    tt_raw = NULL;
    tt = NULL;
    pthread_setspecific(tt_key, NULL);
    tt_have = tt_log2;
    size_t n = (size_t)1 << tt_log2;
    /* buckets on cache-line boundaries, so that no 32-byte entry straddles two lines */
    tt_raw = table_alloc(n * sizeof(Bucket), 1);
    if (!tt_raw) return -1;
    pthread_setspecific(tt_key, tt_raw);
    tt = (Bucket *)tt_raw;
    tt_mask = n - 1;
    tt_small = tt;
    tt_small_mask = tt_mask;
    tt_gen = 1;
    return 0;
}

static inline u64 mix(u64 h) {
    h ^= h >> 31;
    h *= 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* ------------------------------------------------------------------ search state */

typedef struct {
    u64 hand[4];
    u64 trick;          /* cards already in the current trick */
    int to_act, tlen, led, best, bestseat, broken, won;
    int count, maxm, allspade;
    u64 c01, c23;       /* suitcode() of suits 0, 1 and 2, 3 at the start of the current trick */
    u64 nodes;
    u64 limit;          /* node budget for the whole call (0: none); past it `aborted` is set */
    int aborted;
} St;

/* owner sequence of one suit's remaining cards, highest first, 2 bits a card, left-aligned in 26 bits */
static inline u64 suitcode(const u64 *hand, int s) {
    int sh = 13 * s;
    u64 h1 = (hand[1] >> sh) & SUITBITS, h2 = (hand[2] >> sh) & SUITBITS, h3 = (hand[3] >> sh) & SUITBITS;
    u64 u = ((hand[0] >> sh) & SUITBITS) | h1 | h2 | h3;
    u64 a = h1 | h3, b = h2 | h3, code = 0;
    int pos = 24;
    while (u) {
        int i = hibit(u);
        u ^= 1ULL << i;
        code |= (((a >> i) & 1) | (((b >> i) & 1) << 1)) << pos;
        pos -= 2;
    }
    return code;
}

/* leader, spades_broken, tricks left and the suit lengths per hand */
static inline u64 length_key(const St *s, int r) {
    u64 k = (u64)s->to_act | ((u64)s->broken << 2) | ((u64)r << 3);
    int sh = 7;
    for (int h = 0; h < 4; h++)
        for (int su = 0; su < 3; su++, sh += 4) k |= (u64)popc(s->hand[h] & SUITM[su]) << sh;
    return k;
}

/* the suit lengths (all hands together) of a trick start's lengths key: length_key read back */
static inline void key_suit_lengths(u64 lkey, int slen[4]) {
    int r = (int)(lkey >> 3) & 15, sh = 7;
    slen[0] = slen[1] = slen[2] = 0;
    for (int h = 0; h < 4; h++)
        for (int su = 0; su < 3; su++, sh += 4) slen[su] += (int)(lkey >> sh) & 15;
    slen[3] = 4 * r - slen[0] - slen[1] - slen[2];
}

/* Entries are filed by the lengths key and a class: class 0 by the lengths alone, class L (1..4)
 * also by the owner of the top card of suits 0..L-1, and in the larger table class 4 + d by the
 * owners of the top d + 1 cards of every suit.  An entry goes to the finest class its pattern
 * covers and a probe looks in every class, so positions sharing suit lengths spread over many
 * buckets. */
#define MAXLEVEL (4 + DEEP)
#define MINLEVEL 0
static inline u64 level_hash(u64 lkey, int L, const int *slen, u64 c01, u64 c23) {
    if (L == 0) return mix(lkey);
    u64 m[4];
    for (int su = 0; su < 4; su++) {
        int k = L <= 4 ? (su < L && slen[su] ? 1 : 0) : (L - 3 < slen[su] ? L - 3 : slen[su]);
        m[su] = k ? ((1ULL << (2 * k)) - 1) << (26 - 2 * k) : 0;
    }
    u64 x = (c01 & (m[0] | (m[1] << 26))) ^ ((c23 & (m[2] | (m[3] << 26))) * 0x9E3779B97F4A7C15ULL);
    return mix(lkey ^ mix(x ^ ((u64)L << 56)));
}

/* the top k remaining cards of suit su */
static inline u64 top_cards(u64 all, int su, int k) {
    u64 m = all & SUITM[su], out = 0;
    while (k-- > 0 && m) {
        int c = hibit(m);
        m ^= 1ULL << c;
        out |= 1ULL << c;
    }
    return out;
}

/* the finest class (at most top) whose covered cards a pattern (lengths kk per suit) covers */
static inline int entry_class(unsigned kk, const int *slen, int top) {
    int level = top;
    for (int su = 0; su < 4; su++) {
        int k = (kk >> (4 * su)) & 15;
        if (k < slen[su]) {
            int cls = k == 0 ? su : 3 + k;
            if (cls < level) level = cls;
        }
    }
    return level;
}

/* Move the current solve, with its entries, to the larger table and finer classes (the table
 * is made once per thread; not beyond BIG_MAX_LOG2). */
static void tt_go_big(void) {
    tt_want_big = 0;
    tt_tried_big = 1;
    int lg = tt_log2 + BIG_EXTRA;
    if (lg > BIG_MAX_LOG2) return;
    if (!tt_big || tt_big_have != lg) {
        free(tt_big_raw);
        tt_big = NULL;
        pthread_setspecific(tt_big_key, NULL);
        tt_big_raw = table_alloc(((size_t)1 << lg) * sizeof(Bucket), 0);
        if (!tt_big_raw) return; /* stay in the usual table */
        pthread_setspecific(tt_big_key, tt_big_raw);
        tt_big = (Bucket *)tt_big_raw;
        tt_big_have = lg;
    }
    memset(tt_big, 0, ((size_t)1 << lg) * sizeof(Bucket));
    u64 big_mask = ((u64)1 << lg) - 1;
    /* the current solve's entries move along, each to its class in the finer scheme */
    for (u64 bi = 0; bi <= tt_small_mask; bi++) {
        Bucket *b = tt_small + bi;
        for (int i = 0; i < BUCKET; i++) {
            TTE *e = b->e + i;
            if (!b->tag[i] || (e->key >> GENSHIFT) != tt_gen) continue;
            u64 lkey = e->key & ((1ULL << GENSHIFT) - 1);
            int slen[4];
            key_suit_lengths(lkey, slen);
            int level = entry_class(e->k, slen, 4 + DEEP);
            Bucket *nb = tt_big + (level_hash(lkey, level, slen, e->v01, e->v23) & big_mask);
            int vi = -1;
            for (int j = 0; j < BUCKET; j++) if (!nb->tag[j]) { vi = j; break; }
            if (vi < 0) continue; /* a full bucket: the entry is dropped */
            nb->tag[vi] = b->tag[i];
            nb->rank[vi] = b->rank[i];
            nb->e[vi] = *e;
        }
    }
    tt = tt_big;
    tt_mask = big_mask;
    tt_levels = 4 + DEEP;
    st_grown++;
}

/* the cards an entry's pattern covers, in the current position */
static inline u64 entry_cards(const TTE *e, u64 all) {
    return top_cards(all, 0, e->k & 15) | top_cards(all, 1, (e->k >> 4) & 15) |
           top_cards(all, 2, (e->k >> 8) & 15) | top_cards(all, 3, e->k >> 12);
}

/* relative index (from the top, among all remaining cards of its suit) <-> card */
static inline int rel_index(const St *s, int c) {
    int su = c / 13;
    u64 all = (s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3]) & SUITM[su];
    return popc(all >> (c + 1) & (SUITM[su] >> (c + 1)));
}

static inline int from_rel(const St *s, int su, int idx) {
    u64 all = (s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3]) & SUITM[su];
    while (all) {
        int c = hibit(all);
        if (idx-- == 0) return c;
        all ^= 1ULL << c;
    }
    return -1;
}

/* ------------------------------------------------------------------ sure tricks */

/* Tricks the leader p can cash by itself from the top, whatever the others do. */
static int sure_tricks(const St *s, int p, int skip, u64 *wr) {
    u64 mine = s->hand[p];
    u64 oth[3];
    int n = 0;
    u64 ospades = 0, others = 0;
    for (int j = 1; j < 4; j++) {
        u64 hj = s->hand[(p + j) & 3];
        oth[n++] = hj;
        others |= hj;
    }
    ospades = others & SUITM[0];
    int total = 0;
    *wr = 0;
    for (int su = 0; su < 4; su++) {
        u64 m = mine & SUITM[su];
        if (!m || su == skip) continue;
        if (su == 0 && !s->broken && (mine & NONSPADES)) continue;
        u64 o = others & SUITM[su];
        int len = popc(m);
        if (!o) {
            if (su == 0 || !ospades) { total += len; continue; }
        }
        int k = o ? popc(m & ~((2ULL << hibit(o)) - 1)) : len;
        if (!k) continue;
        if (o) *wr |= m & ~((2ULL << hibit(o)) - 1);
        int maxlen = 0, cap = 99;
        for (int j = 0; j < 3; j++) {
            int lj = popc(oth[j] & SUITM[su]);
            if (lj > maxlen) maxlen = lj;
            if (su != 0 && (oth[j] & SUITM[0]) && lj < cap) cap = lj;
        }
        if (su == 0 || cap == 99) total += (k >= maxlen) ? len : k;
        else total += k < cap ? k : cap;
    }
    return total;
}

/* Tricks the leader's side can cash by leading a small card to the partner's top card in a
 * suit and then cashing the partner's other sure tricks (0 when no such entry). */
static int entry_tricks(const St *s, int p, u64 *wr) {
    int q = (p + 2) & 3, best = 0;
    u64 lho = s->hand[(p + 1) & 3], rho = s->hand[(p + 3) & 3], mine = s->hand[p], pt = s->hand[q];
    for (int su = 0; su < 4; su++) {
        u64 m = mine & SUITM[su], ph = pt & SUITM[su];
        if (!m || !ph) continue;
        if (su == 0 && !s->broken && (mine & NONSPADES)) continue;
        int top = hibit(ph);
        if (lobit(m) > top) continue;
        u64 opp = (lho | rho) & SUITM[su];
        if (opp && hibit(opp) > top) continue;
        if (su != 0 && (!(lho & SUITM[su]) && (lho & SUITM[0]))) continue;
        if (su != 0 && (!(rho & SUITM[su]) && (rho & SUITM[0]))) continue;
        u64 w2;
        int t = 1 + sure_tricks(s, q, su, &w2);
        if (t > best) {
            best = t;
            *wr = w2 | (1ULL << top);
        }
    }
    return best;
}

/* ------------------------------------------------------------------ move generation */

typedef struct {
    int card[13];
    int w[13];
    int n;
} Moves;

/* Representatives of runs of equivalent cards in `legal`: the top card of each run.  Two cards
 * of one hand are equivalent when no card of another hand, nor one in the current trick, lies
 * between them.  Per suit, without a loop over the cards: each legal card's bit, moved up one and
 * added to the cards played before (gaps), carries over them and lands on the next card still
 * out above it; where that is not a legal card (or is past the suit), the run ends below it, at
 * the first card under the landing point that is not a gap (a fill down through the gaps). */
static inline u64 representatives(u64 legal, u64 others) {
    u64 reps = 0;
    for (int su = 0; su < 4; su++) {
        u64 l = (legal >> (13 * su)) & SUITBITS;
        if (!l) continue;
        u64 gaps = ~(l | (others >> (13 * su))) & SUITBITS;
        u64 land = (gaps + (l << 1)) & ~gaps;
        u64 below = (land & ~l) >> 1;  /* just under the landing points that end a run */
        u64 gen = below & gaps, pro = gaps;
        gen |= pro & (gen >> 1);
        pro &= pro >> 1;
        gen |= pro & (gen >> 2);
        pro &= pro >> 2;
        gen |= pro & (gen >> 4);
        pro &= pro >> 4;
        gen |= pro & (gen >> 8);
        reps |= (((below & ~gaps) | ((gen >> 1) & ~gaps)) & l) << (13 * su);
    }
    return reps;
}

static inline int beats(int c, int best) {
    int cs = c / 13, bs = best / 13;
    if (cs == bs) return c > best;
    return cs == 0;
}

/* Move-ordering options (bits; 730 measured best on random deals; a history heuristic and
 * killer moves were tried and made the trees larger):
 *   2: a follower whose side is winning the trick but can still be overtaken plays a sure winner
 *   8: the leader avoids a suit an opponent can ruff
 *  16: the leader avoids a suit whose top card sits with the next opponent
 *  64: second hand plays low rather than a winner the fourth hand can beat
 * 128: a leader who wants another seat to win (to set a nil) leads under that seat's cards
 * 256: (off) a follower who wants a later seat to win plays low
 * 512: the leader leads first a low card of a suit the partner can ruff and no opponent can */
static const int variant = 730;
/* weight against a lead per card an opponent may answer it with (ordering by the size of the
 * tree below, after DDS's suit weights): 40-65% fewer trick starts at 13 cards on random deals */
#define OPP_ANSWER_WEIGHT 150

/* per number of cards still held: the lead that last caused a cutoff there (a "killer" lead, as
 * DDS's bestMove), tried early at other trick starts of that depth; reset for every position
 * solved, so that a call's node count does not depend on the calls before it */
static __thread int8_t killer[53];
#define KILLER_WEIGHT 600

static void gen_moves(const St *s, Moves *mv, int ttcard) {
    int p = s->to_act;
    u64 h = s->hand[p];
    u64 legal;
    if (s->tlen) {
        u64 f = h & SUITM[s->led];
        legal = f ? f : h;
    } else if (!s->broken && (h & NONSPADES)) {
        legal = h & NONSPADES;
    } else {
        legal = h;
    }
    u64 others = 0;
    for (int j = 1; j < 4; j++) others |= s->hand[(p + j) & 3];
    u64 reps = representatives(legal, others | s->trick);
    if (ttcard >= 0) {
        u64 up = reps & SUITM[ttcard / 13] & ~((1ULL << ttcard) - 1);
        ttcard = up ? lobit(up) : -1;
    }
    int ismax = (s->maxm >> p) & 1;
    int G = ismax ? s->count : (~s->count & 15);
    int pg = (G >> p) & 1;
    int n = 0;

    if (s->tlen == 0) {
        int partner = (p + 2) & 3;
        int kc = killer[popc(h | others)];
        /* the cards each opponent (left, right) may answer a lead of each suit with */
        int answers[8];
        for (int j = 0; j < 2; j++) {
            u64 ho = s->hand[(p + 1 + 2 * j) & 3];
            for (int su = 0; su < 4; su++) {
                int n = popc(ho & SUITM[su]);
                answers[4 * j + su] = n ? n : popc(ho) + 1;
            }
        }
        /* per suit: the highest card in another hand (-1: none), and whether a seat not good
         * for p could ruff a lead of it (void in it, holding spades) */
        int otop[4], ruffs[4];
        for (int su = 0; su < 4; su++) {
            u64 o = others & SUITM[su];
            otop[su] = o ? hibit(o) : -1;
            ruffs[su] = 0;
        }
        for (int j = 1; j < 4; j++) {
            int q = (p + j) & 3;
            u64 hq = s->hand[q];
            if ((G >> q) & 1 || !(hq & SUITM[0])) continue;
            for (int su = 1; su < 4; su++) if (!(hq & SUITM[su])) ruffs[su] = 1;
        }
        while (reps) {
            int c = lobit(reps);
            reps &= reps - 1;
            int su = c / 13, rk = c % 13;
            int ot = otop[su];
            int o = ot >= 0;
            int top = c > ot;
            int ruffable = ruffs[su];
            int w;
            if (pg) {
                if (top && !ruffable) w = 1000 + rk;
                else if (o && ((G >> partner) & 1) && ((s->hand[partner] >> ot) & 1)) w = 600 - rk;
                else w = 100 - rk + 4 * popc(h & SUITM[su]);
                if (su == 0 && !top) w -= 30;
                if ((variant & 512) && su != 0 && !ruffable && !top && !(s->hand[partner] & SUITM[su]) &&
                    (s->hand[partner] & SUITM[0]) && ((G >> partner) & 1))
                    w = 1200 - rk; /* a low card for the partner to ruff, nobody overruffing: first */
                if ((variant & 8) && ruffable) w -= 200;
                if ((variant & 16) && o && !top) {
                    int lho = (p + 1) & 3;
                    if (!((G >> lho) & 1) && ((s->hand[lho] >> ot) & 1)) w -= 40;
                }
            } else {
                if (top) w = -rk;
                else w = 300 - rk;
                if (variant & 128) {
                    /* p wants another seat t to win (a nil to be set): lead under t's cards in a
                     * suit where t cannot play below the lead */
                    for (int j = 1; j < 4; j++) {
                        int t = (p + j) & 3;
                        if (!((G >> t) & 1)) continue;
                        u64 ts = s->hand[t] & SUITM[su];
                        if (ts && lobit(ts) > c) w += 200;
                    }
                }
            }
            /* the smaller the opponents' choice of answers, the smaller the tree below the
             * lead: this outweighs the rules above (a void opponent may answer with any card) */
            w -= OPP_ANSWER_WEIGHT * (answers[su] + answers[4 + su]);
            if (c == kc) w += KILLER_WEIGHT;
            if (c == ttcard) w = 100000;
            mv->card[n] = c;
            mv->w[n] = w;
            n++;
        }
    } else {
        int bestgood = (G >> s->bestseat) & 1;
        int later = 3 - s->tlen;
        /* the later seats p does not want to win: their highest card of the led suit, and the
         * highest spade of those void in it (-1: none) */
        int hif = -1, hir = -1;
        for (int j = 1; j <= later; j++) {
            int q = (p + j) & 3;
            if ((G >> q) & 1) continue;
            u64 hj = s->hand[q], f = hj & SUITM[s->led];
            if (f) { if (hibit(f) > hif) hif = hibit(f); }
            else if ((hj & SUITM[0]) && hibit(hj & SUITM[0]) > hir) hir = hibit(hj & SUITM[0]);
        }
        /* can one of them beat the current best card? (a higher card of the led suit while the
         * best is of it; a spade while the best is not one, or a higher spade) */
        int bestsafe = !(s->best / 13 == s->led && hif > s->best) &&
                       !(hir >= 0 && (s->best / 13 != 0 || hir > s->best));
        while (reps) {
            int c = lobit(reps);
            reps &= reps - 1;
            int su = c / 13, rk = c % 13;
            int win = beats(c, s->best);
            /* a winner none of them can beat: of the led suit, above their cards with nobody to
             * ruff; a ruff, above their spades */
            int secure = win && (su == s->led ? hif < c && hir < 0 : hir < c);
            int w;
            if (pg) {
                if (bestgood && (bestsafe || variant < 2)) w = win ? (secure ? 400 - rk : 100 - rk) : 600 - rk;
                else if (bestgood) w = win ? (secure ? 1000 - rk : 200 - rk) : 600 - rk;
                else w = win ? (secure ? 1000 - rk : ((variant & 64) && s->tlen == 1 ? 250 - rk : 500 - rk)) : 300 - rk;
                if (!win && su == 0) w -= 30;
                if ((variant & 4) && !win && su != s->led) {
                    u64 o = others & SUITM[su];
                    w += 3 * popc(h & SUITM[su]);
                    if (!o || c > hibit(o)) w -= 100;
                }
            } else {
                w = win ? 100 - rk : 500 + rk;
                if (variant & 256) {
                    /* a seat p wants to win plays later in this trick: stay low under it */
                    for (int j = 1; j <= later; j++)
                        if ((G >> ((p + j) & 3)) & 1) { w = win ? 100 - rk : 500 - rk; break; }
                }
            }

            mv->card[n] = c;
            mv->w[n] = w;
            n++;
        }
    }
    /* insertion sort, heaviest first */
    for (int i = 1; i < n; i++) {
        int c = mv->card[i], w = mv->w[i], j = i - 1;
        while (j >= 0 && mv->w[j] < w) {
            mv->card[j + 1] = mv->card[j];
            mv->w[j + 1] = mv->w[j];
            j--;
        }
        mv->card[j + 1] = c;
        mv->w[j + 1] = w;
    }
    mv->n = n;
}

/* ------------------------------------------------------------------ playing a card */

typedef struct {
    int led, best, bestseat, broken, won, tlen, to_act;
    u64 trick, c01, c23;
} Undo;

/* the suit codes without card c, index k from the top of its suit */
static inline void code_remove(St *s, int c, int k) {
    int su = c / 13;
    u64 *w = su < 2 ? &s->c01 : &s->c23;
    int sh = (su & 1) * 26;
    u64 f = (*w >> sh) & 0x3FFFFFFULL;
    int cut = 26 - 2 * k; /* the slots above c occupy bits cut..25 */
    f = (f & ~((1ULL << cut) - 1)) | ((f & ((1ULL << (cut - 2)) - 1)) << 2);
    *w = (*w & ~(0x3FFFFFFULL << sh)) | (f << sh);
}

static inline void play(St *s, int c, Undo *u) {
    int p = s->to_act, su = c / 13;
    u64 bit = 1ULL << c;
    u->led = s->led; u->best = s->best; u->bestseat = s->bestseat; u->broken = s->broken;
    u->won = s->won; u->tlen = s->tlen; u->to_act = p; u->trick = s->trick;
    s->hand[p] ^= bit;
    if (s->tlen == 0) {
        s->led = su;
        s->best = c;
        s->bestseat = p;
        if (su == 0 && s->allspade) s->broken = 1;
    } else {
        if (su != s->led && su == 0) s->broken = 1;
        if (beats(c, s->best)) {
            s->best = c;
            s->bestseat = p;
        }
    }
    if (s->tlen == 3) {
        int w = s->bestseat;
        /* the 4 cards leave the suit codes, highest first */
        u64 gone = s->trick | bit;
        u64 all = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3] | gone;
        u->c01 = s->c01; u->c23 = s->c23;
        while (gone) {
            int c = hibit(gone);
            gone ^= 1ULL << c;
            code_remove(s, c, popc(all & SUITM[c / 13] & ~((2ULL << c) - 1)));
            all ^= 1ULL << c;
        }
        s->won += (s->count >> w) & 1;
        s->tlen = 0;
        s->to_act = w;
        s->trick = 0;
    } else {
        s->tlen++;
        s->to_act = (p + 1) & 3;
        s->trick |= bit;
    }
}

static inline void unplay(St *s, int c, const Undo *u) {
    s->hand[u->to_act] ^= 1ULL << c;
    s->led = u->led; s->best = u->best; s->bestseat = u->bestseat; s->broken = u->broken;
    s->won = u->won; s->tlen = u->tlen; s->to_act = u->to_act; s->trick = u->trick;
    if (u->tlen == 3) { s->c01 = u->c01; s->c23 = u->c23; }
}

/* ------------------------------------------------------------------ the search */

/* lowest card of the run of equivalent cards topped by c */
static inline int run_low(int c, u64 legal, u64 all) {
    u64 sm = SUITM[c / 13] & ((1ULL << c) - 1);
    u64 below = all & sm & ~legal;
    u64 run = legal & sm;
    if (below) run &= ~((2ULL << hibit(below)) - 1);
    return run ? lobit(run) : c;
}

/* Tricks each side of the count is sure of from its spades, at a trick's start (`r` cards a
 * hand, `need` more tricks wanted by the counted side), with the spades each bound rests on
 * (its winning ranks); 0 and no cards where the spades cannot decide the test.  A seat whose
 * i-th highest spade has h higher spades in other hands takes at least i - h tricks, whoever
 * leads: each of its top i spades loses only to a higher spade in its trick, and each card is
 * in one trick; the seats' tricks add up (a trick has one winner). */
static inline void spade_bounds(const St *s, int r, int need, int *sure_c, u64 *why_c,
                                int *sure_n, u64 *why_n) {
    u64 sp = (s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3]) & SUITM[0], rest = sp;
    int bc = 0, bn = 0;
    u64 wc = 0, wn = 0;
    *sure_c = *sure_n = 0;
    *why_c = *why_n = 0;
    u64 spc = 0; /* the spades of the counted seats */
    for (int j = 0; j < 4; j++) if ((s->count >> j) & 1) spc |= s->hand[j];
    spc &= SUITM[0];
    /* each trick a side is sure of here takes one of its spades: where neither side has
     * enough spades to decide the test, nothing below can: none is counted */
    if (popc(spc) < need && popc(sp & ~spc) <= r - need) return;
    int gc = 0, gn = 0, lc = -1, ln = -1;
    while (rest) {
        int top = hibit(rest);
        int j = 0;
        while (!((s->hand[j] >> top) & 1)) j++;
        u64 mine = s->hand[j] & SUITM[0], m = mine;
        int cj = (s->count >> j) & 1;
        u64 opp = cj ? sp & ~spc : spc; /* the spades of the seats on the other side of the count */
        int i = 0, best = 0, low = -1, gbest = 0, glow = -1;
        while (m) {
            int c = hibit(m);
            m ^= 1ULL << c;
            i++;
            u64 above = ~((2ULL << c) - 1);
            int k = i - popc(sp & ~mine & above);
            if (k > best) { best = k; low = c; }
            /* a spade beaten in its trick only by a spade of a seat on the same side
             * of the count still wins that trick for the side */
            int g = i - popc(opp & above);
            if (g > gbest) { gbest = g; glow = c; }
        }
        if (best) {
            u64 w = sp & ~((1ULL << low) - 1);
            if (cj) { bc += best; wc |= w; }
            else { bn += best; wn |= w; }
        }
        if (cj) { if (gbest > gc) { gc = gbest; lc = glow; } }
        else if (gbest > gn) { gn = gbest; ln = glow; }
        rest &= ~mine;
    }
    /* the seats on one side of the count: each seat's i-th highest spade with h higher
     * spades on the other side makes i - h tricks for its side (its top i spades are in
     * i different tricks, each lost only to a higher spade of the other side) */
    if (gc > bc) { bc = gc; wc = sp & ~((1ULL << lc) - 1); }
    if (gn > bn) { bn = gn; wn = sp & ~((1ULL << ln) - 1); }
    /* the top two spades split between partners, one of whom holds another spade: the
     * pair can take two tricks (DDS's LaterTricks rule: the two can always be kept apart),
     * a bound only where the pair's objective wants those tricks */
    if (popc(sp) >= 2 && r >= 2) {
        int t1 = hibit(sp), t2 = hibit(sp & ~(1ULL << t1)), j1 = 0, j2 = 0;
        while (!((s->hand[j1] >> t1) & 1)) j1++;
        while (!((s->hand[j2] >> t2) & 1)) j2++;
        int c1 = (s->count >> j1) & 1;
        /* the pair must want these tricks (it could also play the two together) */
        if ((j1 ^ j2) == 2 && c1 == ((s->count >> j2) & 1) && c1 == ((s->maxm >> j1) & 1) &&
            c1 == ((s->maxm >> j2) & 1) &&
            (popc(s->hand[j1] & SUITM[0]) > 1 || popc(s->hand[j2] & SUITM[0]) > 1)) {
            u64 w = (1ULL << t1) | (1ULL << t2);
            if (c1) { if (bc < 2) { bc = 2; wc = w; } }
            else if (bn < 2) { bn = 2; wn = w; }
        }
    }
    *sure_c = bc;
    *why_c = wc;
    *sure_n = bn;
    *why_n = wn;
}

/* 1 when the maximising side can make the counted tricks (s->won included) reach target.
 * *wr receives the cards whose ranks the result depends on (DDS's "winning ranks"). */
static int ab(St *s, int target, u64 *wr) {
    if (++s->nodes > s->limit && s->limit) {
        s->aborted = 1;
        *wr = 0;
        return 0;
    }
    int p = s->to_act;
    int need = 0, ttcard = -1, r = 0;
    u64 lkey = 0, gkey = 0, c01 = 0, c23 = 0;
    uint16_t gtag = 0;
    if (s->tlen) {
        /* who takes this trick when every seat still to play plays its strongest legal card:
         * that seat can force it, whatever the others do (DDS's second-hand quick trick, at
         * every seat); it decides the test only when this trick is the one still needed or the
         * one that must not be lost */
        int hope = s->won + 1 >= target, last = s->won + popc(s->hand[p]) - 1 < target;
        if (hope || last) {
            int bc = s->best, bseat = s->bestseat;
            for (int j = 0; j < 4 - s->tlen; j++) {
                int q = (p + j) & 3;
                u64 hq = s->hand[q], f = hq & SUITM[s->led];
                int c;
                if (f) c = hibit(f);
                else if (hq & SUITM[0]) c = hibit(hq & SUITM[0]);
                else continue;
                if (beats(c, bc)) { bc = c; bseat = q; }
            }
            int cb = (s->count >> bseat) & 1;
            if (bseat == s->bestseat || cb == ((s->maxm >> bseat) & 1)) {
                if (cb && hope) { st_quick++; *wr = 1ULL << bc; return 1; }
                if (!cb && last) { st_quick++; *wr = 1ULL << bc; return 0; }
            }
        }
    } else {
        r = popc(s->hand[p]);
        *wr = 0;
        if (s->won >= target) return 1;
        if (s->won + r < target) return 0;
        need = target - s->won;
        if (r == 1) {
            int best = lobit(s->hand[p]), bs = p;
            for (int j = 1; j < 4; j++) {
                int q = (p + j) & 3, c = lobit(s->hand[q]);
                if (beats(c, best)) { best = c; bs = q; }
            }
            /* the winner's rank matters when another card of its suit lost to it */
            u64 tm = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
            if (popc(tm & SUITM[best / 13]) > 1) *wr = 1ULL << best;
            return ((s->count >> bs) & 1) >= need;
        }
        /* the table's buckets: fetch them while the bounds below are computed */
        lkey = length_key(s, r);
        gkey = lkey | ((u64)tt_gen << GENSHIFT);
        gtag = key_tag(gkey);
        c01 = s->c01;
        c23 = s->c23;
#ifdef CHECK_CODES
        if (c01 != (suitcode(s->hand, 0) | (suitcode(s->hand, 1) << 26)) ||
            c23 != (suitcode(s->hand, 2) | (suitcode(s->hand, 3) << 26))) abort();
#endif
        u64 all = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
        int slen[4];
        Bucket *bk[MAXLEVEL + 1];
        for (int su = 0; su < 4; su++) slen[su] = popc(all & SUITM[su]);
        if (tt_want_big) tt_go_big();
        for (int L = MINLEVEL; L <= tt_levels; L++) {
            bk[L] = tt + (level_hash(lkey, L, slen, c01, c23) & tt_mask);
            __builtin_prefetch(&bk[L]->tag[0]);
            __builtin_prefetch(&bk[L]->tag[32]);
        }
        {
            int bc, bn;
            u64 wc, wn;
            spade_bounds(s, r, need, &bc, &wc, &bn, &wn);
            if (bc >= need) { st_quick++; *wr = wc; return 1; }
            if (r - bn < need) { st_quick++; *wr = wn; return 0; }
        }
        st_probe++;
        for (int L = MINLEVEL; L <= tt_levels; L++) {
            Bucket *b = bk[L];
            u64 hits = scan_tags(b->tag, gtag);
            while (hits) {
                int i = lobit(hits);
                hits &= hits - 1;
                TTE *e = b->e + i;
                if (e->key != gkey || ((c01 ^ e->v01) & kmask01(e->k)) || ((c23 ^ e->v23) & kmask23(e->k))) continue;
                if (e->lb >= need) { st_hit++; *wr = entry_cards(e, all); return 1; }
                if (e->ub < need) { st_hit++; *wr = entry_cards(e, all); return 0; }
                if (ttcard < 0 && e->move != 0xFF) ttcard = from_rel(s, e->move >> 4, e->move & 15);
            }
        }
        /* tricks the leader cashes itself, or the partner after an entry, help the leader's
         * side when their winner's tricks count for that side */
        int inc = (s->count >> p) & 1, mx = (s->maxm >> p) & 1;
        if (inc == mx) {
            u64 qwr;
            int q = sure_tricks(s, p, -1, &qwr);
            if (inc && q >= need) { st_quick++; *wr = qwr; return 1; }
            if (!inc && r - q < need) { st_quick++; *wr = qwr; return 0; }
        }
        int pq = (p + 2) & 3, pinc = (s->count >> pq) & 1;
        if (((s->maxm >> pq) & 1) == mx && pinc == mx) {
            u64 qwr;
            int q = entry_tricks(s, p, &qwr);
            if (pinc && q >= need) { st_quick++; *wr = qwr; return 1; }
            if (!pinc && r - q < need) { st_quick++; *wr = qwr; return 0; }
        }
    }
    Moves mv;
    gen_moves(s, &mv, ttcard);
    int ismax = (s->maxm >> p) & 1;
    int result = !ismax, bestc = -1;
    u64 acc = 0;
    u64 h = s->hand[p];
    u64 legal = s->tlen ? ((h & SUITM[s->led]) ? (h & SUITM[s->led]) : h)
                        : ((!s->broken && (h & NONSPADES)) ? (h & NONSPADES) : h);
    u64 allc = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3] | s->trick;
    for (int i = 0; i < mv.n; i++) {
        Undo u;
        u64 cw;
        int c = mv.card[i];
        play(s, c, &u);
        int v = ab(s, target, &cw);
        if (s->aborted) {
            unplay(s, c, &u);
            return 0; /* nothing is stored from an unfinished search */
        }
        if (u.tlen == 3) {
            int w = s->best;
            if (popc((u.trick | (1ULL << c)) & SUITM[w / 13]) > 1) cw |= 1ULL << w;
        }
        unplay(s, c, &u);
        if (v == ismax) {
            if (!u.tlen) killer[popc(allc)] = (int8_t)c;
            result = ismax;
            bestc = c;
            acc = cw;
            break;
        }
        acc |= cw;
        if ((cw >> c) & 1) acc |= 1ULL << run_low(c, legal, allc);
    }
    *wr = acc;
    if (s->tlen == 0) {
        /* the pattern: per suit, the owners of all cards down to the lowest relevant one */
        u64 all = allc, m[4];
        int spec = 0, slen[4];
        unsigned kk = 0;
        for (int su = 0; su < 4; su++) {
            u64 rel = acc & SUITM[su];
            int k = rel ? popc(all & SUITM[su] & ~((1ULL << lobit(rel)) - 1)) : 0;
            slen[su] = popc(all & SUITM[su]);
            if (k < MINLEVEL && k < slen[su]) k = MINLEVEL < slen[su] ? MINLEVEL : slen[su];
            spec += k;
            kk |= (unsigned)k << (4 * su);
            m[su] = k ? ((1ULL << (2 * k)) - 1) << (26 - 2 * k) : 0;
        }
        u64 m01 = m[0] | (m[1] << 26), m23 = m[2] | (m[3] << 26);
        u64 v01 = c01 & m01, v23 = c23 & m23;
        int level = entry_class(kk, slen, tt_levels);
        Bucket *b = tt + (level_hash(lkey, level, slen, c01, c23) & tt_mask);
        TTE *slot = NULL;
        int vi = -1, vscore = -1;
        u64 same = scan_tags(b->tag, gtag);
        while (same) {
            int i = lobit(same);
            same &= same - 1;
            TTE *e = b->e + i;
            if (e->key == gkey && e->k == kk && e->v01 == v01 && e->v23 == v23) {
                slot = e;
                break;
            }
        }
        if (!slot) {
            /* the victim among 8 slots from a rotating start: an old generation first, then the
             * shallowest, then the most specific */
            int start = (int)((st_store - store_mark) * 8) & (BUCKET - 1);
            for (int j = 0; j < 8; j++) {
                int i = (start + j) & (BUCKET - 1);
                unsigned k = b->rank[i];
                int score = (k >> 10) != (tt_gen & 63) ? 100000 : (16 - (int)(k >> 6 & 15)) * 64 + (int)(k & 63);
                if (score > vscore) { vscore = score; vi = i; }
            }
        }
        st_store++;
        if (!slot) {
            if ((b->rank[vi] >> 10) == (tt_gen & 63) && ++st_evict - evict_mark > tt_thrash && !tt_tried_big) tt_want_big = 1;
            b->rank[vi] = (uint16_t)((tt_gen & 63) << 10 | r << 6 | spec);
            slot = b->e + vi;
            b->tag[vi] = gtag;
            b->e[vi].key = gkey;
            slot->k = (uint16_t)kk; slot->v01 = v01; slot->v23 = v23;
            slot->lb = 0; slot->ub = (int8_t)r; slot->move = 0xFF; slot->spec = (uint8_t)spec;
        }
        if (result) { if (slot->lb < need) slot->lb = (int8_t)need; }
        else { if (slot->ub > need - 1) slot->ub = (int8_t)(need - 1); }
        if (bestc >= 0) slot->move = (uint8_t)(((bestc / 13) << 4) | rel_index(s, bestc));
    }
    return result;
}

/* exact value of the position (counted tricks from here, s->won == 0), lo..hi known bounds */
static int trace = 0;

/* Exact value of the position (counted tricks from here, s->won == 0) in lo..hi by null-window
 * tests "value >= g": the first at the guess, then stepping by one (linear, when the guess is
 * good) or bisecting. */
static int value(St *s, int lo, int hi, int guess, int linear) {
    int g = guess < lo + 1 ? lo + 1 : guess > hi ? hi : guess;
    if (trace) fprintf(stderr, " value %d..%d guess %d\n", lo, hi, guess);
    while (lo < hi) {
        u64 wr, n0 = s->nodes;
        int ok = ab(s, g, &wr);
        if (s->aborted) return -1;
        if (trace) fprintf(stderr, "  test %d -> %d  %llu nodes\n", g, ok, (unsigned long long)(s->nodes - n0));
        if (ok) lo = g;
        else hi = g - 1;
        g = linear-- > 0 ? (ok ? lo + 1 : hi) : (lo + hi + 1) / 2;
    }
    return lo;
}

/* ------------------------------------------------------------------ Python interface */

static int parse_position(PyObject *args, St *s, int *ntricks, int *cap, int *fresh, u64 *card_limit) {
    unsigned long long h[4], limit = 0, climit = 0;
    PyObject *trick;
    int to_act, broken, allspade, count, maxm;
    *cap = 99;
    *fresh = 0;
    if (!PyArg_ParseTuple(args, "(KKKK)iOppii|iKpK", &h[0], &h[1], &h[2], &h[3], &to_act, &trick, &broken,
                          &allspade, &count, &maxm, cap, &limit, fresh, &climit))
        return -1;
    *card_limit = climit;
    if (*cap < 0) {
        PyErr_SetString(PyExc_ValueError, "cap must be >= 0");
        return -1;
    }
    memset(s, 0, sizeof(*s));
    if (to_act < 0 || to_act > 3) {
        PyErr_SetString(PyExc_ValueError, "to_act must be a seat 0..3");
        return -1;
    }
    u64 seen = 0;
    for (int i = 0; i < 4; i++) {
        if (h[i] & ~ALLCARDS) {
            PyErr_SetString(PyExc_ValueError, "a hand mask has bits beyond the 52 cards");
            return -1;
        }
        if (seen & h[i]) {
            PyErr_SetString(PyExc_ValueError, "two hands share a card");
            return -1;
        }
        seen |= h[i];
        s->hand[i] = h[i];
    }
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence of (seat, card) pairs");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a trick in progress has at most 3 cards");
        return -1;
    }
    s->count = count & 15;
    s->maxm = maxm & 15;
    s->limit = limit;
    s->allspade = allspade;
    s->broken = broken;
    int leader = (to_act - (int)n) & 3;
    u64 tby[4] = {0, 0, 0, 0};
    for (Py_ssize_t i = 0; i < n; i++) {
        int seat, card;
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyArg_ParseTuple(item, "ii", &seat, &card)) {
            Py_DECREF(seq);
            return -1;
        }
        if (seat != ((leader + i) & 3)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "trick card %zd is played by seat %d, expected seat %d (to_act %d)",
                         i, seat, (leader + (int)i) & 3, to_act);
            return -1;
        }
        if (card < 0 || card > 51 || (seen >> card & 1)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "trick card %d is not a card or is also in a hand", card);
            return -1;
        }
        seen |= 1ULL << card;
        int su = card / 13;
        if (i == 0) {
            s->led = su; s->best = card; s->bestseat = seat;
            if (su == 0 && allspade) s->broken = 1;
        } else {
            if (su != s->led && su == 0) s->broken = 1;
            if (beats(card, s->best)) { s->best = card; s->bestseat = seat; }
        }
        s->trick |= 1ULL << card;
        tby[seat] |= 1ULL << card;
    }
    Py_DECREF(seq);
    {
        /* the suit codes at the trick start: the trick's cards back with the seats that played them */
        u64 hh[4] = {s->hand[0] | tby[0], s->hand[1] | tby[1], s->hand[2] | tby[2], s->hand[3] | tby[3]};
        s->c01 = suitcode(hh, 0) | (suitcode(hh, 1) << 26);
        s->c23 = suitcode(hh, 2) | (suitcode(hh, 3) << 26);
    }
    s->tlen = (int)n;
    s->to_act = to_act;
    int r = popc(s->hand[to_act]);
    for (int j = 0; j < 4; j++) {
        /* seats that already played to this trick hold one card fewer */
        int expect = r - (((j - leader) & 3) < (int)n);
        if (popc(s->hand[j]) != expect) {
            PyErr_Format(PyExc_ValueError,
                         "seat %d holds %d cards, expected %d (seat %d to act holds %d, %zd in the trick)",
                         j, popc(s->hand[j]), expect, to_act, r, n);
            return -1;
        }
    }
    if (r == 0 && n) {
        PyErr_SetString(PyExc_ValueError, "a trick in progress but the seat to act has no card");
        return -1;
    }
    *ntricks = r;
    if (tt_alloc()) {
        PyErr_NoMemory();
        return -1;
    }
    memset(killer, -1, sizeof(killer));
    tt = tt_small;
    tt_mask = tt_small_mask;
    tt_levels = 4;
    tt_want_big = tt_tried_big = 0;
    evict_mark = st_evict;
    store_mark = st_store;
    tt_gen++;
    if (tt_gen > GENMAX) { memset(tt, 0, sizeof(Bucket) * (tt_mask + 1)); tt_gen = 1; }
    return 0;
}

static __thread u64 total_nodes = 0;
/* the value of the last position solved, per number of tricks left: the first guess for the
 * next (the advisor solves many deals sampled for one decision) */
static __thread int last_value[14] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};

static PyObject *py_solve(PyObject *self, PyObject *args) {
    St s;
    int r, cap, fresh;
    u64 card_limit;
    if (parse_position(args, &s, &r, &cap, &fresh, &card_limit)) return NULL;
    if (r == 0) return PyLong_FromLong(0);
    int hi = r < cap ? r : cap;
    int v, known = !fresh && last_value[r] >= 0;
    Py_BEGIN_ALLOW_THREADS
    v = value(&s, 0, hi, known ? last_value[r] : (r + 1) / 2, known ? 2 : 0);
    Py_END_ALLOW_THREADS
    total_nodes += s.nodes;
    if (s.aborted) Py_RETURN_NONE;
    if (hi == r) last_value[r] = v;
    return PyLong_FromLong(v);
}

static PyObject *py_solve_moves(PyObject *self, PyObject *args) {
    St s;
    int r, cap, fresh;
    u64 card_limit;
    if (parse_position(args, &s, &r, &cap, &fresh, &card_limit)) return NULL;
    PyObject *out = PyDict_New();
    if (!out || r == 0) return out;
    int p = s.to_act;
    u64 h = s.hand[p], legal;
    if (s.tlen) {
        u64 f = h & SUITM[s.led];
        legal = f ? f : h;
    } else if (!s.broken && (h & NONSPADES)) {
        legal = h & NONSPADES;
    } else {
        legal = h;
    }
    u64 others = 0;
    for (int j = 1; j < 4; j++) others |= s.hand[(p + j) & 3];
    others |= s.trick;
    Moves mv;
    int vals[13], aborted = 0, skipped = 0, rootv = -1;
    u64 call_limit = s.limit;
    Py_BEGIN_ALLOW_THREADS
    gen_moves(&s, &mv, -1);
    int known = !fresh && last_value[r] >= 0;
    int guess = known ? last_value[r] : (r + 1) / 2, linear = known ? 2 : 0;
    int ismax = (s.maxm >> p) & 1;
    for (int i = 0; i < mv.n; i++) vals[i] = -1;
    /* with a card limit, a first pass gives each card that many nodes and a second the cards
     * left out whatever the call's limit leaves: the quick verdicts do not wait behind a slow one */
    for (int pass = 0; pass < (card_limit ? 2 : 1) && !aborted; pass++) {
        for (int i = 0; i < mv.n; i++) {
            if (vals[i] >= 0) continue;
            int c = mv.card[i];
            Undo u;
            /* the value after c: counted tricks of this trick (c included) and later */
            play(&s, c, &u);
            int base = s.won; /* a completed trick already counted */
            int v;
            s.won = 0;
            if (card_limit) {
                u64 lim = s.nodes + card_limit;
                s.limit = pass || (call_limit && call_limit < lim) ? call_limit : lim;
            }
            {
                int hi = r - (u.tlen == 3 ? 1 : 0);
                if (hi > cap - base) hi = cap - base;
                v = hi <= 0 ? (base < cap ? base : cap) : value(&s, 0, hi, guess - base, linear) + base;
            }
            s.won = base;
            unplay(&s, c, &u);
            if (s.aborted) {
                s.aborted = 0;
                if (!card_limit || (call_limit && s.nodes > call_limit)) {
                    aborted = 1;
                    break;
                }
                continue; /* over the card's own limit: left for the second pass */
            }
            guess = v;
            linear = 2;
            vals[i] = v;
            if (rootv < 0 || (ismax ? v > rootv : v < rootv)) rootv = v;
        }
    }
    for (int i = 0; i < mv.n; i++) if (vals[i] < 0) skipped = 1; /* left out: no first guess from it */
    total_nodes += s.nodes;
    if (!skipped && rootv >= 0 && cap >= r) last_value[r] = rootv;
    Py_END_ALLOW_THREADS
    if (aborted && !card_limit) {
        Py_DECREF(out);
        Py_RETURN_NONE;
    }
    for (int i = 0; i < mv.n; i++) {
        int c = mv.card[i], v = vals[i];
        if (v < 0) continue; /* left out at its node limit */
        /* every card of c's run gets the value */
        u64 below = others & SUITM[c / 13] & ((1ULL << c) - 1);
        u64 run = legal & SUITM[c / 13] & ((2ULL << c) - 1);
        if (below) run &= ~((2ULL << hibit(below)) - 1);
        while (run) {
            int d = lobit(run);
            run &= run - 1;
            PyObject *k = PyLong_FromLong(d), *val = PyLong_FromLong(v);
            if (!k || !val || PyDict_SetItem(out, k, val)) {
                Py_XDECREF(k); Py_XDECREF(val); Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(k); Py_DECREF(val);
        }
    }
    return out;
}

static PyObject *py_stats(PyObject *self, PyObject *noargs) {
    return Py_BuildValue("{s:K,s:i,s:K,s:K,s:K,s:K,s:K,s:K}", "nodes", (unsigned long long)total_nodes, "tt_log2", tt_log2,
                         "probe", (unsigned long long)st_probe, "hit", (unsigned long long)st_hit,
                         "store", (unsigned long long)st_store, "evict", (unsigned long long)st_evict,
                         "quick", (unsigned long long)st_quick, "grown", (unsigned long long)st_grown);
}

static PyObject *py_set_growth(PyObject *self, PyObject *args) {
    unsigned long long n;
    if (!PyArg_ParseTuple(args, "K", &n)) return NULL;
    tt_thrash = n;
    Py_RETURN_NONE;
}

static PyObject *py_set_tt_log2(PyObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i", &n)) return NULL;
    if (n < 8 || n > 26) {
        PyErr_SetString(PyExc_ValueError, "tt_log2 must be 8..26");
        return NULL;
    }
    tt_log2 = n; /* each thread's table is remade at this size on its next solve */
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(hands, to_act, trick, spades_broken, allspade_lead_breaks, count_seats, maximizer_seats) -> int"},
    {"solve_moves", py_solve_moves, METH_VARARGS,
     "solve_moves(same arguments as solve) -> {card: tricks} for every legal card of the seat to act"},
    {"stats", py_stats, METH_NOARGS, "search counters"},
    {"set_tt_log2", py_set_tt_log2, METH_VARARGS, "set the transposition table size (2**n buckets of 64 entries), per thread at its next solve"},
    {"set_growth", py_set_growth, METH_VARARGS, "evictions within one solve after which it moves to the larger table (default 100000)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_solver", "Double-dummy solver for Spades (C).", -1,
                                    methods};

#ifdef CLANG_POP
#pragma clang attribute pop
#endif

PyMODINIT_FUNC PyInit__solver(void) {
    trace = getenv("PIKI_SOLVER_TRACE") != NULL;
#ifdef NEED_POPCNT_CHECK
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "advisor._solver needs a CPU with the POPCNT instruction");
        return NULL;
    }
#endif
    return PyModule_Create(&moddef);
}
