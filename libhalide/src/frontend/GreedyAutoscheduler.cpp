// A one-pass heuristic autoscheduler, in the spirit of upstream's Li2018:
// every Func that would be recomputed if inlined is computed at root, its
// innermost pure loop vectorized by the target's natural vector width and
// its outermost pure loop parallel; updates get the same over their pure
// Vars where that is race-free. Funcs the user already scheduled are left
// as they are. It needs no estimates.
#include "frontend/GreedyAutoscheduler.h"

#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
    // `callees`, if given, collects the names of the Funcs called.
    CountCalls(std::map<std::string, CallSites> &sites, bool in_reduction, std::set<std::string> *callees = nullptr)
        : sites_(sites), in_reduction_(in_reduction), callees_(callees) {}
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            CallSites &s = sites_[op->name];
            s.count++;
            s.in_reduction = s.in_reduction || in_reduction_;
            if (callees_) {
                callees_->insert(op->name);
            }
        }
        IRVisitor::visit(op);
    }

private:
    std::map<std::string, CallSites> &sites_;
    bool in_reduction_;
    std::set<std::string> *callees_;
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

// Whether f's pure definition calls another Func of the pipeline, from the
// callees its values call (collected once, in the walk that counts calls).
bool calls_funcs(const std::set<std::string> &callees, const Environment &env) {
    for (const std::string &c : callees) {
        if (env.count(c)) {
            return true;
        }
    }
    return false;
}

// A C++ identifier for a Func's variable in the schedule source: its name
// with other characters made '_', unique among those already taken.
std::string source_name(const std::string &func, std::set<std::string> &taken) {
    std::string id;
    for (char c : func) {
        id += std::isalnum((unsigned char)c) ? c : '_';
    }
    if (id.empty() || std::isdigit((unsigned char)id[0])) {
        id = "f_" + id;
    }
    // Names the body uses, and C++ keywords a Func could be called.
    static const std::set<std::string> reserved = {
        "pipeline", "target", "Func",   "Var",   "TailStrategy", "auto",   "bool",  "break",  "case",
        "char",     "class",  "const",  "do",    "double",       "else",   "float", "for",    "if",
        "int",      "long",   "new",    "short", "signed",       "static", "this",  "switch", "unsigned",
        "void",     "while",  "delete", "union", "struct",       "return", "goto",  "enum",   "default"};
    std::string unique = id;
    for (int i = 2; reserved.count(unique) || taken.count(unique); i++) {
        unique = id + "_" + std::to_string(i);
    }
    taken.insert(unique);
    return unique;
}

// A Var of the Func, as the schedule source names it.
std::string var_source(const std::string &var) {
    return "Var(\"" + var + "\")";
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
    std::map<std::string, std::set<std::string>> pure_callees; // caller -> Funcs its values call
    for (const auto &e : env) {
        CountCalls pure(sites, false, &pure_callees[e.first]);
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

    // The schedule as C++ statements over `pipeline` (upstream's form of
    // schedule_source, the body of the .schedule.h's apply_schedule_NAME):
    // each Func scheduled is pipeline.get_func(i), i its realization index.
    std::ostringstream src;
    src << "// Schedule made by this compiler's built-in autoscheduler (as '" << params.name << "')\n"
        << "// for target=" << target.to_string() << "\n";
    std::set<std::string> taken;
    // Consumers first, as upstream's schedules are written.
    for (size_t index = order.size(); index-- > 0;) {
        FunctionPtr fp = env.at(order[index]);
        const FunctionContents &f = *fp;
        bool is_output = false;
        for (const FunctionPtr &o : outs) {
            is_output = is_output || o == fp;
        }
        if (f.scheduled || f.compute != ComputeLevel::Inlined || f.store != ComputeLevel::Inlined) {
            continue; // the user's schedule stands
        }
        const CallSites &cs = sites[f.name];
        bool inline_it =
            !is_output && f.updates.empty() && !f.extern_def &&
            ((cs.count == 1 && !cs.in_reduction) || (cheap_leaf(f) && !calls_funcs(pure_callees[f.name], env)));
        if (inline_it) {
            continue;
        }
        Func func(fp);
        const std::string name = source_name(f.name, taken);
        std::vector<std::string> directives; // each ".directive(...)"
        if (!is_output) {
            func.compute_root();
            directives.emplace_back(".compute_root()");
        }
        const int vw = vector_width(f, target);
        if (!f.extern_def && !f.args.empty()) {
            if (vw > 1) {
                func.vectorize(Var(f.args.front()), vw, TailStrategy::GuardWithIf);
                directives.push_back(".vectorize(" + var_source(f.args.front()) + ", " + std::to_string(vw) +
                                     ", TailStrategy::GuardWithIf)");
            }
            if (f.args.size() >= 2) {
                func.parallel(Var(f.args.back()));
                directives.push_back(".parallel(" + var_source(f.args.back()) + ")");
            }
        }
        std::ostringstream updates;
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
                uline << "\n    .vectorize(" << var_source(u.pure_vars.front()) << ", " << vw
                      << ", TailStrategy::GuardWithIf)";
            }
            for (size_t d = u.pure_vars.size(); d-- > 1;) {
                if (!u.pure_vars[d].empty()) {
                    st.parallel(Var(u.pure_vars[d]));
                    uline << "\n    .parallel(" << var_source(u.pure_vars[d]) << ")";
                    break;
                }
            }
            if (!uline.str().empty()) {
                updates << name << ".update(" << i << ")" << uline.str() << ";\n";
            }
        }
        if (directives.empty() && updates.str().empty()) {
            continue;
        }
        src << "Func " << name << " = pipeline.get_func(" << index << ");\n";
        for (size_t i = 0; i < directives.size(); i++) {
            src << (i ? "\n    " : name) << directives[i] << (i + 1 == directives.size() ? ";\n" : "");
        }
        src << updates.str();
    }
    outputs->target = target;
    outputs->autoscheduler_params = params;
    outputs->schedule_source = src.str();
}

} // namespace Internal
} // namespace Halide
