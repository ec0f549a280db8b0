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

bool Var::is_implicit(const std::string &name) {
    // "_" as well (index 0), as upstream's.
    if (name.empty() || name[0] != '_') {
        return false;
    }
    for (size_t i = 1; i < name.size(); i++) {
        if (name[i] < '0' || name[i] > '9') {
            return false;
        }
    }
    return true;
}

int Var::implicit_index(const std::string &name) {
    return !is_implicit(name) ? -1 : name.size() == 1 ? 0 : std::stoi(name.substr(1));
}

namespace Internal {

std::vector<Var> make_argument_list(int dimensionality) {
    std::vector<Var> args;
    for (int i = 0; i < dimensionality; i++) {
        args.push_back(Var::implicit(i));
    }
    return args;
}

} // namespace Internal

} // namespace Halide
