// See Passes.h: the Provides of atomic() update stages, wrapped in Atomic.
//
// A stage's Provide sits inside that stage's loops, which are named
// "f.s<stage>.<var>" (loop_var_name). A Provide to f whose innermost loop of
// f belongs to an atomic update is that update's; one outside any loop of f
// runs once and races with nothing.
#include <cctype>
#include <string>
#include <vector>

#include "Halide/IRMutator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The stage of f a loop named "f.s<k>.var" belongs to, or -1.
int stage_of_loop(const std::string &loop, const std::string &func) {
    std::string prefix = func + ".s";
    if (loop.compare(0, prefix.size(), prefix) != 0) {
        return -1;
    }
    size_t i = prefix.size(), digits = 0;
    int stage = 0;
    while (i + digits < loop.size() && std::isdigit((unsigned char)loop[i + digits])) {
        stage = stage * 10 + (loop[i + digits] - '0');
        digits++;
    }
    return digits > 0 && i + digits < loop.size() && loop[i + digits] == '.' ? stage : -1;
}

class WrapAtomicUpdates : public IRMutator {
public:
    explicit WrapAtomicUpdates(const Environment &env) : env_(env) {}

    using IRMutator::visit;
    Stmt visit(const For *op) override {
        loops_.push_back(op->name);
        Stmt s = IRMutator::visit(op);
        loops_.pop_back();
        return s;
    }

    Stmt visit(const Provide *op) override {
        auto f = env_.find(op->name);
        if (f == env_.end()) {
            return IRMutator::visit(op);
        }
        for (auto loop = loops_.rbegin(); loop != loops_.rend(); ++loop) {
            int stage = stage_of_loop(*loop, op->name);
            if (stage < 0) {
                continue;
            }
            const std::vector<UpdateDefinition> &updates = f->second->updates;
            if (stage >= 1 && (size_t)stage <= updates.size() && updates[stage - 1].atomic) {
                return Atomic::make(op->name, self_stmt(op));
            }
            break;
        }
        return IRMutator::visit(op);
    }

private:
    const Environment &env_;
    std::vector<std::string> loops_;
};

} // namespace

Stmt add_atomics(const Stmt &s, const Environment &env) {
    return WrapAtomicUpdates(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
