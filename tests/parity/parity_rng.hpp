// The parity programs' random source: splitmix64, tiny and identical on
// every platform (the std:: distributions are not), so a (seed, case)
// pair names the same case everywhere.
#ifndef PF_TESTS_PARITY_RNG_HPP
#define PF_TESTS_PARITY_RNG_HPP

#include <cstdint>

namespace pft {

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /* [0, 1) with 53 random bits */
    double uni() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    double unit() { return uni(); }
    /* [lo, hi) */
    double uni(double lo, double hi) { return lo + (hi - lo) * uni(); }
    /* [lo, hi], inclusive */
    int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1)); }
    bool chance(double p) { return uni() < p; }
};

}  // namespace pft

#endif
