/* Plain N-Queens solution counter: the reference point for the numba kernel
 * in gridgames.queens.counter. Same search (bitmasks, one row at a time,
 * explicit stack, mirror symmetry on the top row).
 *
 *   gcc -O2 -o nqueens_count nqueens_count.c && ./nqueens_count 16
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int64_t count_below(int n, int first_col) {
    int64_t full = ((int64_t)1 << n) - 1;
    int64_t cols[64], left[64], right[64], free_sq[64];
    int64_t bit = (int64_t)1 << first_col;
    int64_t count = 0;
    int last = n - 1, depth = 1;
    if (n == 1) return 1;
    cols[1] = bit;
    left[1] = (bit << 1) & full;
    right[1] = bit >> 1;
    free_sq[1] = full & ~(cols[1] | left[1] | right[1]);
    while (depth > 0) {
        int64_t options = free_sq[depth];
        if (options == 0) { depth--; continue; }
        if (depth == last) { count++; depth--; continue; }
        bit = options & -options;
        free_sq[depth] = options ^ bit;
        int64_t c = cols[depth] | bit;
        int64_t lo = ((left[depth] | bit) << 1) & full;
        int64_t ro = (right[depth] | bit) >> 1;
        depth++;
        cols[depth] = c;
        left[depth] = lo;
        right[depth] = ro;
        free_sq[depth] = full & ~(c | lo | ro);
    }
    return count;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 62) {
        fprintf(stderr, "n must be between 1 and 62\n");
        return 2;
    }
    int64_t total = 0;
    for (int col = 0; col < n / 2; col++) total += 2 * count_below(n, col);
    if (n % 2 == 1) total += count_below(n, n / 2);
    printf("%lld\n", (long long)total);
    return 0;
}
