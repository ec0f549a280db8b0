// The simplifier's bounds reasoning: proves inequalities between signed
// integer expressions (index math) from what the program around them says:
// loop ranges, Let definitions and asserted lower/upper bounds.
//
// Like upstream Halide's simplifier, it treats signed 32- and 64-bit
// arithmetic as not overflowing. Proofs are bounded in effort: a false
// answer means "not proven", never "false".
#ifndef HALIDE_INTERNAL_PROVER_H
#define HALIDE_INTERNAL_PROVER_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

class Prover {
public:
    // Within a loop `name` takes values in [min, max].
    void push_range(const std::string &name, const Expr &min, const Expr &max);
    // Within a Let `name` equals `value`.
    void push_definition(const std::string &name, const Expr &value);
    // An assert said lo <= name (or name <= hi).
    void push_constant_bounds(const std::string &name, std::optional<int64_t> lo, std::optional<int64_t> hi);
    void pop(const std::string &name);

    // Record what a condition that holds says about single variables
    // (v >= c, c <= v, v <= c, ... joined by &&); returns the names pushed.
    std::vector<std::string> learn(const Expr &condition);

    // Is a <= b for every value the variables can take?
    bool prove_le(const Expr &a, const Expr &b) const;
    // Is a < b?
    bool prove_lt(const Expr &a, const Expr &b) const;
    // a - b, if it is a constant once Let names are replaced by their values.
    std::optional<int64_t> constant_difference(const Expr &a, const Expr &b) const;

private:
    struct Knowledge {
        Expr definition;               // from a Let
        Expr min, max;                 // from a loop
        std::optional<int64_t> lo, hi; // from asserts
    };
    std::map<std::string, std::vector<Knowledge>> known_;
    void push(const std::string &name, Knowledge k);
    const Knowledge *find(const std::string &name) const;

    struct Linear; // sum of coefficient * term, plus a constant
    bool prove_difference_at_most(const Expr &a, const Expr &b, int64_t target) const;
    bool at_most(const Linear &l, int64_t target, int budget, int *work) const;
    std::optional<int64_t> constant_bound(const Expr &e, bool upper, int depth) const;
};

} // namespace Internal
} // namespace Halide

#endif
