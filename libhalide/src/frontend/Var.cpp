// See Var.h.
#include "Halide/Var.h"

#include <atomic>

#include "Halide/IR.h"

namespace Halide {

namespace {
std::string fresh_var_name() {
    static std::atomic<int> counter{0};
    return "v" + std::to_string(counter++);
}
} // namespace

Var::Var() : name_(fresh_var_name()) {}

Var::Var(const std::string &name) : name_(name) {}

Var::operator Expr() const {
    return Internal::Variable::make(Int(32), name_);
}

Var Var::implicit(int n) {
    return Var("_" + std::to_string(n));
}

} // namespace Halide
