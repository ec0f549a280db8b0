// See Random.h. A random_*() call is the intrinsic random(seed?, id) until
// the definition it appears in is made (FuncRef::define), which replaces it
// by a hash of that definition's coordinates. The hash: a 32-bit state
// mixed with each input in turn by a multiply-xorshift finalizer (good
// avalanche: each input bit changes about half the output bits); floats
// come from its top 24 bits.
#include "Halide/Random.h"

#include <atomic>
#include <string>
#include <utility>

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

// The hash's Lets: each xor-shift reads its input twice, so without a
// name per step the tree would double at every step (megabytes of IR and
// seconds of compiling for one random_float()).
class LetChain {
public:
    Expr bind(const Expr &e) {
        if (e.as<Internal::Variable>() || Internal::is_const(e)) {
            return e;
        }
        std::string name = "random$" + std::to_string(let_counter++);
        lets_.emplace_back(name, e);
        return Internal::Variable::make(e.type(), name);
    }
    Expr wrap(Expr body) const {
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
            body = Internal::Let::make(it->first, it->second, body);
        }
        return body;
    }

private:
    static inline std::atomic<int> let_counter{0};
    std::vector<std::pair<std::string, Expr>> lets_;
};

Expr xorshift(LetChain &lets, const Expr &x, int shift) {
    Expr v = lets.bind(x);
    return v ^ (v >> shift);
}

// x's bits scattered over all 32 (a bijection of UInt(32)).
Expr mix(LetChain &lets, const Expr &x) {
    Expr v = xorshift(lets, x, 16) * u32_const(0x21f0aaadu);
    v = xorshift(lets, v, 15) * u32_const(0x735a2d97u);
    return xorshift(lets, v, 15);
}

// The hash of the inputs, each an integer of up to 64 bits.
Expr hash(const std::vector<Expr> &inputs) {
    LetChain lets;
    Expr h = u32_const(0x6a09e667u);
    for (const Expr &in : inputs) {
        std::vector<Expr> words;
        if (in.type().bits() > 32) {
            Expr wide = lets.bind(reinterpret(UInt(64, in.type().lanes()), in));
            words = {cast(UInt(32), wide), cast(UInt(32), wide >> 32)};
        } else {
            words = {cast(UInt(32), in)};
        }
        for (const Expr &w : words) {
            h = mix(lets, h ^ w) + u32_const(0x9e3779b9u);
        }
    }
    return lets.wrap(mix(lets, h));
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
