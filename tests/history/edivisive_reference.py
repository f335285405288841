#!/usr/bin/env python3
"""An independent reference of src/history/change_points.cpp: E-Divisive means (Matteson & James 2014,
exponent 1, the right end fixed at the segment's end), a permutation test per candidate, recursive bisection,
a percentile bootstrap of each shift.

The statistic is computed here from its definition, split by split (every pairwise distance, numpy when
Debian's python3-numpy is installed, plain Python otherwise), where the C++ code updates running sums. The
random draws are the same on purpose (xoshiro256** seeded through splitmix64, Lemire's bounded draw, the same
seeds per segment and per change), so that p-values and intervals can be compared exactly, not only in
distribution.

Usage: edivisive_reference.py SERIES.json
  SERIES.json: {"series": [...], "permutations": 199, "alpha": 0.01, "min_segment": 3, "seed": 1,
                "bootstrap": 2000, "confidence": 0.95, "min_relative_shift": 0.0}
Prints {"profile": [q...] of the whole series, "change_points": [{index, statistic, p_value, before, after,
shift_low, shift_high}]} as JSON with every double in full (repr)."""
import json
import math
import sys

try:
    import numpy
except ImportError:  # plain Python gives the same numbers, only slower
    numpy = None

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
TIE_TOLERANCE = 1e-9


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Rng:
    """xoshiro256**, seeded by splitmix64 (src/common/rng.h)."""

    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed = (seed + GOLDEN) & M64
            self.s.append(mix64(seed))

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, bound):
        return (self.next() * bound) >> 64


def pair_sum(a, b):
    """Sum of |a_i - b_j| over every i, j."""
    if numpy is not None:
        return float(numpy.abs(numpy.subtract.outer(numpy.asarray(a), numpy.asarray(b))).sum())
    return math.fsum(abs(x - y) for x in a for y in b)


def q_statistic(left, right):
    """Matteson & James's q for one split, from the definition (ordered pairs within each side)."""
    m, k = len(left), len(right)
    between = pair_sum(left, right) / (m * k)
    within_left = pair_sum(left, left) / (m * (m - 1))
    within_right = pair_sum(right, right) / (k * (k - 1))
    return m * k / (m + k) * (2 * between - within_left - within_right)


def profile(segment, min_segment):
    n = len(segment)
    return [q_statistic(segment[:tau], segment[tau:]) for tau in range(min_segment, n - min_segment + 1)]


def p_value(segment, observed, min_segment, permutations, seed):
    rng = Rng(seed)
    shuffled = list(segment)
    as_large = 0
    for _ in range(permutations):
        for i in range(len(shuffled) - 1, 0, -1):
            j = rng.below(i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        if max(profile(shuffled, min_segment)) >= observed - TIE_TOLERANCE * max(1.0, abs(observed)):
            as_large += 1
    return (as_large + 1) / (permutations + 1)


def bisect(series, start, end, opts, min_segment, out):
    if end - start < 2 * min_segment:
        return
    segment = series[start:end]
    prof = profile(segment, min_segment)
    best = max(prof)
    position = start + min_segment + prof.index(best)
    before = mean(series[start:position])
    if abs(mean(series[position:end]) - before) < opts["min_relative_shift"] * abs(before):
        return
    seed = opts["seed"] ^ mix64(((start << 32) | end) & M64)
    p = p_value(segment, best, min_segment, opts["permutations"], seed)
    if p > opts["alpha"]:
        return
    out.append((position, best, p))
    bisect(series, start, position, opts, min_segment, out)
    bisect(series, position, end, opts, min_segment, out)


def mean(values):
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def shift_interval(before, after, position, opts):
    count = opts["bootstrap"]
    if count == 0:
        return 0.0, 0.0
    rng = Rng(opts["seed"] ^ mix64(~position & M64))

    def resampled_mean(values):
        total = 0.0
        for _ in range(len(values)):
            total += values[rng.below(len(values))]
        return total / len(values)

    shifts = []
    for _ in range(count):
        mean_before = resampled_mean(before)
        shifts.append(resampled_mean(after) - mean_before)
    shifts.sort()
    low = math.floor((1.0 - opts["confidence"]) / 2.0 * count)
    high = math.ceil((1.0 + opts["confidence"]) / 2.0 * count)
    return shifts[min(low, count - 1)], shifts[min(max(high, 1), count) - 1]


def change_points(series, opts):
    min_segment = max(opts["min_segment"], 2)
    splits = []
    bisect(series, 0, len(series), opts, min_segment, splits)
    splits.sort()
    out = []
    for i, (at, statistic, p) in enumerate(splits):
        start = splits[i - 1][0] if i > 0 else 0
        end = splits[i + 1][0] if i + 1 < len(splits) else len(series)
        before, after = series[start:at], series[at:end]
        low, high = shift_interval(before, after, at, opts)
        out.append({"index": at + 1, "statistic": statistic, "p_value": p, "before": mean(before),
                    "after": mean(after), "shift_low": low, "shift_high": high})
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        request = json.load(f)
    opts = {"permutations": 199, "alpha": 0.01, "min_segment": 3, "seed": 1, "bootstrap": 2000, "confidence": 0.95,
            "min_relative_shift": 0.0}
    opts.update({k: v for k, v in request.items() if k != "series"})
    series = [float(v) for v in request["series"]]
    result = {"numpy": numpy is not None,
              "profile": profile(series, max(opts["min_segment"], 2)) if len(series) >= 2 * max(opts["min_segment"], 2) else [],
              "change_points": change_points(series, opts)}
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
