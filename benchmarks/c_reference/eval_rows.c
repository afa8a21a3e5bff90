/* The batch kernel of evaluator/kernels/high.py (evaluate_rows) written in C, for a
 * side-by-side check that the Numba kernel runs at native speed on this machine.
 *
 * Same tables, same algorithm: each row's card keys are summed and looked up as if it had
 * no flush; rows whose suit counters say flush are listed and mended after each block.
 * Built by benchmarks/test_bench_c_reference.py with the system C compiler (-O3
 * -march=native); nothing in the package uses it.  The five-card hash stores its values as
 * uint32 (see tables/generate.py), the general one as uint16: `wide` picks the reading.
 */
#include <stdint.h>
#include <string.h>

#define HAND_INIT (0x3333ULL << 32)
#define FLUSH_BITS (0x8888ULL << 32)
#define KEY_MASK ((1ULL << 25) - 1)
#define ROW_SHIFT 12
#define COL_MASK ((1ULL << ROW_SHIFT) - 1)
#define BLOCK 4096

static inline __attribute__((always_inline)) int32_t value_at(const void *rank_values, int wide,
                                                              uint64_t slot)
{
    return wide ? (int32_t)((const uint32_t *)rank_values)[slot]
                : (int32_t)((const uint16_t *)rank_values)[slot];
}

static inline __attribute__((always_inline)) int32_t slow_row(const uint8_t *row, int k, const uint64_t *card_keys,
                        const uint16_t *rank_offsets, const void *rank_values, int wide,
                        const uint16_t *flush_values)
{
    uint64_t key = HAND_INIT, suits = 0x3333;
    for (int j = 0; j < k; j++) {
        key += card_keys[row[j]];
        suits += 1ULL << ((row[j] & 3) << 2);
    }
    if (key & FLUSH_BITS) {
        unsigned suit = (unsigned)__builtin_ctzll(suits & 0x8888) >> 2, ranks = 0;
        for (int j = 0; j < k; j++)
            ranks |= (unsigned)((row[j] & 3) == suit) << (row[j] >> 2);
        return flush_values[ranks & 0x1FFF];
    }
    uint64_t h = key & KEY_MASK;
    return value_at(rank_values, wide, ((uint64_t)rank_offsets[h >> ROW_SHIFT] << 1) + (h & COL_MASK));
}

static inline __attribute__((always_inline)) void
evaluate_rows(const uint8_t *hands, int64_t n, int k, int32_t *out,
              const uint64_t *card_keys, const uint16_t *rank_offsets,
              const void *rank_values, int wide, const uint16_t *flush_values)
{
    uint64_t flushes[BLOCK];
    for (int64_t start = 0; start < n; start += BLOCK) {
        int64_t stop = start + BLOCK < n ? start + BLOCK : n;
        int64_t count = 0;
        for (int64_t i = start; i < stop; i++) {
            const uint8_t *row = hands + i * k;
            uint64_t key = HAND_INIT;
            for (int j = 0; j < k; j++)
                key += card_keys[row[j]];
            uint64_t h = key & KEY_MASK;
            out[i] = value_at(rank_values, wide,
                              ((uint64_t)rank_offsets[h >> ROW_SHIFT] << 1) + (h & COL_MASK));
            if (__builtin_expect((key & FLUSH_BITS) != 0, 0))
                flushes[count++] = (uint64_t)i;
        }
        for (int64_t f = 0; f < count; f++) {
            int64_t i = (int64_t)flushes[f];
            out[i] = slow_row(hands + i * k, k, card_keys, rank_offsets, rank_values, wide,
                              flush_values);
        }
    }
}

/* One specialization per row width, as Numba compiles one per width_marker. */
void evaluate_rows7(const uint8_t *hands, int64_t n, int32_t *out, const uint64_t *ck,
                    const uint16_t *ro, const uint16_t *rv, const uint16_t *fv)
{
    evaluate_rows(hands, n, 7, out, ck, ro, rv, 0, fv);
}

void evaluate_rows5(const uint8_t *hands, int64_t n, int32_t *out, const uint64_t *ck,
                    const uint16_t *ro, const uint32_t *rv, const uint16_t *fv)
{
    evaluate_rows(hands, n, 5, out, ck, ro, rv, 1, fv);
}
