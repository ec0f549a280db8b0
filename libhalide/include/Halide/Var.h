// Halide::Var: a name for a dimension of a Func.
#ifndef HALIDE_VAR_H
#define HALIDE_VAR_H

#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {

class Var {
public:
    Var(); // a fresh, unique name ("v0", "v1", ...)
    explicit Var(const std::string &name);
    const std::string &name() const { return name_; }
    operator Expr() const;
    bool same_as(const Var &other) const { return name_ == other.name_; }

    // Implicit vars (_0, _1, ...) and the placeholder _, as upstream names them.
    static Var implicit(int n);
    // "_0", "_1", ... (and the placeholder "_"), as upstream's.
    static bool is_implicit(const std::string &name);
    bool is_implicit() const { return is_implicit(name()); }
    // 0 for _0 (and _), 1 for _1, ...; -1 for any other name.
    static int implicit_index(const std::string &name);
    int implicit_index() const { return implicit_index(name()); }
    // The placeholder _ (in a call: the remaining arguments).
    static bool is_placeholder(const std::string &name) { return name == "_"; }
    bool is_placeholder() const { return is_placeholder(name()); }
    // The level outside a Func's outermost loop (for scheduling).
    static Var outermost() { return Var("__outermost"); }

private:
    std::string name_;
};

// The placeholder _ and the implicit Vars _0 ... _9 (upstream's
// ImplicitVar): `f(x, _) = g(x, _)` stands for the arguments g has beyond
// x, named _0, _1, ... as in `f(x, _0, _1) = g(x, _0, _1)`.
template <int N = -1> struct ImplicitVar {
    Var to_var() const { return N >= 0 ? Var::implicit(N) : Var("_"); }
    operator Var() const { return to_var(); }
    operator Expr() const { return to_var(); }
};

static constexpr ImplicitVar<> _{};
static constexpr ImplicitVar<0> _0{};
static constexpr ImplicitVar<1> _1{};
static constexpr ImplicitVar<2> _2{};
static constexpr ImplicitVar<3> _3{};
static constexpr ImplicitVar<4> _4{};
static constexpr ImplicitVar<5> _5{};
static constexpr ImplicitVar<6> _6{};
static constexpr ImplicitVar<7> _7{};
static constexpr ImplicitVar<8> _8{};
static constexpr ImplicitVar<9> _9{};

namespace Internal {
// `dimensionality` distinct implicit Vars _0, _1, ...
std::vector<Var> make_argument_list(int dimensionality);
} // namespace Internal

} // namespace Halide

#endif
