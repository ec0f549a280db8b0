// A one-pass heuristic autoscheduler, in the spirit of upstream's Li2018:
// every Func that would be recomputed if inlined is computed at root, its
// innermost pure loop vectorized by the target's natural vector width and
// its outermost pure loop parallel; updates get the same over their pure
// Vars where that is race-free. Funcs the user already scheduled are left
// as they are. It needs no estimates.
#include "frontend/GreedyAutoscheduler.h"

#include <map>
#include <sstream>

#include "Halide/IRVisitor.h"
#include "lower/Function.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

namespace {

// Where each Func is called from: call sites, and whether any sits in an
// update definition with a reduction domain (evaluated once per RVar point).
struct CallSites {
    int count = 0;
    bool in_reduction = false;
};

class CountCalls : public IRVisitor {
public:
    CountCalls(std::map<std::string, CallSites> &sites, bool in_reduction)
        : sites_(sites), in_reduction_(in_reduction) {}
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            CallSites &s = sites_[op->name];
            s.count++;
            s.in_reduction = s.in_reduction || in_reduction_;
        }
        IRVisitor::visit(op);
    }

private:
    std::map<std::string, CallSites> &sites_;
    bool in_reduction_;
};

// Nodes of an expression, to tell a cheap definition (a boundary
// condition's clamp and load) from one worth computing once.
class CountNodes : public IRVisitor {
public:
    int nodes = 0;
    using IRVisitor::visit;

#define HALIDE_IR_NODE(N)                                                                                              \
    void visit(const N *op) override {                                                                                 \
        nodes++;                                                                                                       \
        IRVisitor::visit(op);                                                                                          \
    }
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE
};

bool cheap_leaf(const FunctionContents &f) {
    CountNodes n;
    for (const Expr &v : f.values) {
        n.include(v);
    }
    return n.nodes <= 24;
}

bool calls_funcs(const FunctionContents &f, const Environment &env) {
    std::map<std::string, CallSites> sites;
    CountCalls c(sites, false);
    for (const Expr &v : f.values) {
        c.include(v);
    }
    for (const auto &s : sites) {
        if (env.count(s.first)) {
            return true;
        }
    }
    return false;
}

int vector_width(const FunctionContents &f, const Target &target) {
    int w = 0;
    for (const Expr &v : f.values) {
        Type t = v.type().is_bool() ? UInt(8) : v.type();
        int n = target.natural_vector_size(t);
        w = w == 0 ? n : std::min(w, n);
    }
    return std::max(w, 1);
}

} // namespace

void greedy_autoschedule(const Pipeline &p, const Target &target, const AutoschedulerParams &params,
                         AutoSchedulerResults *outputs) {
    std::vector<FunctionPtr> outs;
    for (const Func &f : p.outputs()) {
        user_assert(f.defined()) << "Func '" << f.name() << "' has not been defined";
        outs.push_back(f.function());
    }
    Environment env;
    std::vector<std::string> order = realization_order(outs, env);

    std::map<std::string, CallSites> sites;
    for (const auto &e : env) {
        CountCalls pure(sites, false);
        for (const Expr &v : e.second->values) {
            pure.include(v);
        }
        for (const UpdateDefinition &u : e.second->updates) {
            CountCalls update(sites, u.rdom != nullptr);
            for (const Expr &a : u.args) {
                update.include(a);
            }
            for (const Expr &v : u.values) {
                update.include(v);
            }
        }
    }

    std::ostringstream src;
    src << "// Schedule made by this compiler's built-in autoscheduler (as '" << params.name << "')\n"
        << "// for target=" << target.to_string() << "\n";
    // Consumers first, as upstream's schedules are written.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        FunctionPtr fp = env.at(*it);
        const FunctionContents &f = *fp;
        bool is_output = false;
        for (const FunctionPtr &o : outs) {
            is_output = is_output || o == fp;
        }
        if (f.scheduled || f.compute != ComputeLevel::Inlined || f.store != ComputeLevel::Inlined) {
            continue; // the user's schedule stands
        }
        const CallSites &cs = sites[f.name];
        bool inline_it = !is_output && f.updates.empty() && !f.extern_def &&
                         ((cs.count == 1 && !cs.in_reduction) || (cheap_leaf(f) && !calls_funcs(f, env)));
        if (inline_it) {
            continue;
        }
        Func func(fp);
        std::ostringstream line;
        line << f.name << (is_output ? "" : ".compute_root()");
        if (!is_output) {
            func.compute_root();
        }
        const int vw = vector_width(f, target);
        if (!f.extern_def && !f.args.empty()) {
            if (vw > 1) {
                func.vectorize(Var(f.args.front()), vw, TailStrategy::GuardWithIf);
                line << "\n    .vectorize(" << f.args.front() << ", " << vw << ", TailStrategy::GuardWithIf)";
            }
            if (f.args.size() >= 2) {
                func.parallel(Var(f.args.back()));
                line << "\n    .parallel(" << f.args.back() << ")";
            }
        }
        src << line.str() << ";\n";
        for (size_t i = 0; i < f.updates.size(); i++) {
            const UpdateDefinition &u = f.updates[i];
            if (u.scheduled) {
                continue;
            }
            std::ostringstream uline;
            Stage st = func.update((int)i);
            // Each pure Var of an update is race-free to run in parallel or
            // as vector lanes; with RVars inside, only the outermost goes parallel.
            if (!u.rdom && !u.pure_vars.empty() && !u.pure_vars.front().empty() && vw > 1) {
                st.vectorize(Var(u.pure_vars.front()), vw, TailStrategy::GuardWithIf);
                uline << "\n    .vectorize(" << u.pure_vars.front() << ", " << vw << ", TailStrategy::GuardWithIf)";
            }
            for (size_t d = u.pure_vars.size(); d-- > 1;) {
                if (!u.pure_vars[d].empty()) {
                    st.parallel(Var(u.pure_vars[d]));
                    uline << "\n    .parallel(" << u.pure_vars[d] << ")";
                    break;
                }
            }
            if (!uline.str().empty()) {
                src << f.name << ".update(" << i << ")" << uline.str() << ";\n";
            }
        }
    }
    outputs->target = target;
    outputs->autoscheduler_params = params;
    outputs->schedule_source = src.str();
}

} // namespace Internal
} // namespace Halide
