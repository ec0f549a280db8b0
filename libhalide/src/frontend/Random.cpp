// See Random.h. A random_*() call is the intrinsic random(seed?, id) until
// the definition it appears in is made (FuncRef::define), which replaces it
// by a hash of that definition's coordinates. The hash: a 32-bit state
// mixed with each input in turn by a multiply-xorshift finalizer (good
// avalanche: each input bit changes about half the output bits); floats
// come from its top 24 bits.
#include "Halide/Random.h"

#include <atomic>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {

namespace {

std::atomic<int> call_counter{0};
std::atomic<int> tag_counter{0};

Expr random_call(Type t, const char *who, const Expr &seed) {
    std::vector<Expr> args;
    if (seed.defined()) {
        // As upstream's: random_uint's seed is checked as random_int's.
        bool is_float = t.is_float();
        user_assert(seed.type() == Int(32) || (!is_float && seed.type() == UInt(32)))
            << "The seed passed to " << who << " must have type Int(32)" << (is_float ? "" : " or UInt(32)")
            << ", but instead is " << seed << " of type " << seed.type();
        args.push_back(seed);
    }
    args.push_back(Expr(call_counter++));
    return Internal::Call::make(t, "random", args, Internal::Call::Intrinsic);
}

Expr u32_const(uint32_t v) {
    return Internal::make_const(UInt(32), (uint64_t)v);
}

// x's bits scattered over all 32 (a bijection of UInt(32)).
Expr mix(Expr x) {
    x = x ^ (x >> 16);
    x = x * u32_const(0x21f0aaadu);
    x = x ^ (x >> 15);
    x = x * u32_const(0x735a2d97u);
    return x ^ (x >> 15);
}

// The hash of the inputs, each an integer of up to 64 bits.
Expr hash(const std::vector<Expr> &inputs) {
    Expr h = u32_const(0x6a09e667u);
    for (const Expr &in : inputs) {
        std::vector<Expr> words;
        if (in.type().bits() > 32) {
            Expr wide = reinterpret(UInt(64, in.type().lanes()), in);
            words = {cast(UInt(32), wide), cast(UInt(32), wide >> 32)};
        } else {
            words = {cast(UInt(32), in)};
        }
        for (const Expr &w : words) {
            h = mix(h ^ w) + u32_const(0x9e3779b9u);
        }
    }
    return mix(h);
}

class LowerRandom : public Internal::IRMutator {
public:
    LowerRandom(const std::vector<std::string> &vars, int tag) : vars_(vars), tag_(tag) {}
    using IRMutator::visit;
    Expr visit(const Internal::Call *op) override {
        if (op->call_type != Internal::Call::Intrinsic || op->name != "random") {
            return IRMutator::visit(op);
        }
        std::vector<Expr> inputs;
        for (const std::string &v : vars_) {
            inputs.push_back(Internal::Variable::make(Int(32), v));
        }
        for (const Expr &a : op->args) {
            inputs.push_back(mutate(a));
        }
        inputs.push_back(Expr(tag_));
        Expr h = hash(inputs);
        if (op->type.is_float()) {
            return cast(Float(32), h >> 8) * (1.0f / 16777216.0f);
        }
        return h;
    }

private:
    const std::vector<std::string> &vars_;
    int tag_;
};

} // namespace

Expr random_float(Expr seed) {
    return random_call(Float(32), "random_float", seed);
}

Expr random_uint(Expr seed) {
    return random_call(UInt(32), "random_int", seed);
}

Expr random_int(Expr seed) {
    return reinterpret(Int(32), random_call(UInt(32), "random_int", seed));
}

namespace Internal {

Expr lower_random(const Expr &e, const std::vector<std::string> &free_vars, int tag) {
    return LowerRandom(free_vars, tag).mutate(e);
}

int next_random_tag() {
    return tag_counter++;
}

} // namespace Internal
} // namespace Halide
