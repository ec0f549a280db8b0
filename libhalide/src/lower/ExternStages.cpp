// See Passes.h: extern stages (Func::define_extern).
//
// An extern stage f computed over <region> becomes
//
//   let f.extern.q<j>.<i> = buffer_make(no host, value i of Func input j, zero dims)
//                           (a buffer input: a copy of it)
//   let f.extern.query = fn(inputs (the query buffers), scalars, outputs (no host, <region>))
//   let f.extern.q<j>.min.d/.extent.d/.max.d = what fn asked for of input j
//   assert(f.extern.query == 0)
//   ...f's storage... {
//     if (extern_stage_marker) { g(the region asked for); f(<region>) = 0 }
//     let f.extern.result = fn(inputs (their realizations), scalars, outputs (<region> of f's storage))
//     assert(f.extern.result == 0)
//   }
//
// The bounds query's lets open the statement, so each Func input g, placed
// around it later (ScheduleFunctions places consumers first), finds the
// region asked for in them (bind_region keeps opening lets symbolic). The
// marker, never run, shows bounds inference, storage and argument
// inference what the C function reads and writes; strip_extern_markers
// removes it before storage flattening. Buffer inputs are passed whole to
// the call. Their region is what a query over every region of f computed
// asks for (extern_root_query, made by ExternInputQueries.cpp before the
// pipeline's input checks), as upstream's root-level bounds query.
#include <algorithm>
#include <array>
#include <functional>

#include "Halide/Error.h"
#include "Halide/ExternFuncArgument.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "lower/ExternStages.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// ExternFuncArgument::ArgType.
enum ArgKind { FuncArg = 1, BufferArg = 2, ExprArg = 3, ImageParamArg = 4 };

constexpr const char *kMarker = "extern_stage_marker";

// The answers of an extern stage's query about its Func inputs, inside
// loops, lie within what a query over every region of the stage computed
// asks for (f.extern.root.q<j>.min.d/.max.d), as upstream's root-level
// bounds query assumes: so a Func input computed outside those loops (at
// root, say) is computed over a bounded region. Bounds inference reads
// promise_clamped (its interval); extern_input_queries makes the root query
// where the root answers were used, and takes the promise off elsewhere.
constexpr const char *kRootBound = "promise_clamped";

Expr handle_var(const std::string &name) {
    return Variable::make(Handle(), name);
}

// A halide_buffer_t made on the stack (codegen: buffer_make): `host` (an
// int 0 for none) plus `offset` elements, of type t, with per dimension
// (min, extent, stride).
Expr buffer_make(const Expr &host, const Expr &offset, Type t, const std::vector<std::array<Expr, 3>> &dims) {
    std::vector<Expr> args = {host,
                              offset,
                              int32_const(t.code()),
                              int32_const(t.bits()),
                              int32_const(t.lanes()),
                              int32_const((int64_t)dims.size())};
    for (const auto &d : dims) {
        args.insert(args.end(), d.begin(), d.end());
    }
    return Call::make(Handle(), "buffer_make", args, Call::Intrinsic);
}

// A coordinate bounds inference sees as [min, max].
Expr anywhere_in(const Expr &min, const Expr &max) {
    Expr unknown = Call::make(Int(32), "extern_stage_unknown", {}, Call::Intrinsic);
    return Call::make(Int(32), "promise_clamped", {unknown, min, max}, Call::Intrinsic);
}

Expr max_of(const Expr &min, const Expr &extent) {
    return Sub::make(Add::make(min, extent), int32_const(1));
}

// The flat buffer name of value i of Func g: g, or g.i for a Tuple.
std::string value_buffer(const FunctionContents &g, size_t i) {
    return g.values.size() > 1 ? g.name + "." + std::to_string(i) : g.name;
}

// A region of one value of g's storage (its memory at `value`.host, its
// fields named `storage`.min.d, .stride.d), with ends region(d, false)
// (min) and region(d, true) (extent): buffer_make(host, offset, t, (min,
// extent, stride) per dimension) with offset the sum of (min -
// storage.min.d) * storage.stride.d, the form storage_folding rewrites.
Expr storage_buffer(const FunctionContents &g, const std::string &value, const std::string &storage, Type t,
                    const std::function<Expr(int, bool)> &region) {
    std::vector<std::array<Expr, 3>> dims;
    Expr offset = int32_const(0);
    for (int d = 0; d < (int)g.args.size(); d++) {
        Expr min = region(d, false), stride = buffer_field(storage, "stride", d);
        dims.push_back({min, region(d, true), stride});
        offset = Add::make(offset, Mul::make(Sub::make(min, buffer_field(storage, "min", d)), stride));
    }
    return buffer_make(handle_var(value + ".host"), offset, t, dims);
}

// The names of the root query's lets (extern_root_query).
std::string root_prefix(const FunctionContents &f) {
    return f.name + ".extern.root.";
}

Stmt check_result(const FunctionContents &f, const std::string &result) {
    Expr r = var_int32(result);
    return AssertStmt::make(EQ::make(r, int32_const(0)),
                            Call::make(Int(32), "halide_error_extern_stage_failed",
                                       {handle_var("__user_context"), StringImm::make(f.extern_def->name), r},
                                       Call::Extern));
}

class StripMarkers : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        const Call *c = op->condition.as<Call>();
        if (c && c->call_type == Call::Intrinsic && c->name == kMarker) {
            return Evaluate::make(int32_const(0));
        }
        return IRMutator::visit(op);
    }
};

// The bounds query of extern stage f over <region>.min.d / .extent.d:
// lets of the buffers it is given (<prefix>q<j>.<i>), the call, and lets of
// what it asked for of each Func or buffer input j (<prefix>q<j>.min.d, .extent.d,
// .max.d). A Func input gets a buffer with no shape; a buffer input a copy
// of it (upstream's query buffer: its data too, none when the pipeline
// itself is asked for its bounds), so the function writes what it needs
// into the copy, never into the input itself.
struct QueryParts {
    std::vector<std::pair<std::string, Expr>> buffers, answers;
    Expr call;
};

QueryParts extern_query(const FunctionContents &f, const std::string &region, const std::string &prefix,
                        bool within_root = false, std::vector<std::string> *outputs = nullptr) {
    const Call *stage = f.values[0].as<Call>();
    QueryParts q;
    std::vector<Expr> query_args;
    for (size_t j = 0; j < stage->args.size(); j++) {
        const Expr &a = stage->args[j];
        int kind = f.extern_def->arg_kinds[j];
        if (kind == ExprArg) {
            query_args.push_back(a);
            continue;
        }
        const Call *c = a.as<Call>();
        internal_assert(c) << "extern stage argument " << j << " of " << f.name;
        std::string qj = prefix + "q" + std::to_string(j);
        size_t dims = c->args.size();
        if (kind == FuncArg) {
            FunctionPtr input = find_function(c->name);
            internal_assert(input) << "extern stage input " << c->name << " is unknown";
            const FunctionContents &g = *input;
            dims = g.args.size();
            for (size_t i = 0; i < g.values.size(); i++) {
                std::string qi = qj + "." + std::to_string(i);
                std::vector<std::array<Expr, 3>> none(dims, {int32_const(0), int32_const(0), int32_const(0)});
                q.buffers.emplace_back(qi, buffer_make(int32_const(0), int32_const(0), g.values[i].type(), none));
                query_args.push_back(handle_var(qi));
            }
        } else {
            std::vector<std::array<Expr, 3>> shape;
            for (size_t d = 0; d < dims; d++) {
                shape.push_back({buffer_field(c->name, "min", (int)d), buffer_field(c->name, "extent", (int)d),
                                 buffer_field(c->name, "stride", (int)d)});
            }
            q.buffers.emplace_back(qj + ".0",
                                   buffer_make(handle_var(c->name + ".host"), int32_const(0), c->type, shape));
            query_args.push_back(handle_var(qj + ".0"));
        }
        // The region asked for: what the query wrote into the first value's buffer.
        for (size_t d = 0; d < dims; d++) {
            Expr buf = handle_var(qj + ".0"), dim = int32_const((int64_t)d);
            std::string suffix = "." + std::to_string(d);
            Expr min = Call::make(Int(32), "buffer_get_min", {buf, dim}, Call::Intrinsic);
            Expr max = max_of(var_int32(qj + ".min" + suffix), var_int32(qj + ".extent" + suffix));
            if (within_root && kind == FuncArg) {
                // Within what the root query asks for (see root_bounded).
                std::string root = root_prefix(f) + "q" + std::to_string(j);
                auto within = [&](const Expr &e) {
                    return Call::make(Int(32), kRootBound,
                                      {e, var_int32(root + ".min" + suffix), var_int32(root + ".max" + suffix)},
                                      Call::Intrinsic);
                };
                min = within(min);
                max = within(max);
            }
            q.answers.emplace_back(qj + ".min" + suffix, min);
            q.answers.emplace_back(qj + ".extent" + suffix,
                                   Call::make(Int(32), "buffer_get_extent", {buf, dim}, Call::Intrinsic));
            q.answers.emplace_back(qj + ".max" + suffix, max);
        }
    }
    for (size_t i = 0; i < f.values.size(); i++) {
        std::vector<std::array<Expr, 3>> query_dims;
        for (size_t d = 0; d < f.args.size(); d++) {
            query_dims.push_back(
                {buffer_field(region, "min", (int)d), buffer_field(region, "extent", (int)d), int32_const(0)});
        }
        Expr buffer = buffer_make(int32_const(0), int32_const(0), f.values[i].type(), query_dims);
        if (outputs) { // bound to a let, to read what the query wrote into it
            outputs->push_back(prefix + "out." + std::to_string(i));
            q.buffers.emplace_back(outputs->back(), buffer);
            buffer = handle_var(outputs->back());
        }
        query_args.push_back(buffer);
    }
    q.call = Call::make(Int(32), f.extern_symbol, query_args, Call::Extern);
    return q;
}

// The query's lets (its buffers, the call bound to `result`, what it
// answered) around `body`.
Stmt query_lets(const QueryParts &q, const std::string &result, Stmt body) {
    for (auto it = q.answers.rbegin(); it != q.answers.rend(); ++it) {
        body = LetStmt::make(it->first, it->second, body);
    }
    body = LetStmt::make(result, q.call, body);
    for (auto it = q.buffers.rbegin(); it != q.buffers.rend(); ++it) {
        body = LetStmt::make(it->first, it->second, body);
    }
    return body;
}

// `body` after the query: its lets around the check of its result.
Stmt with_query(const FunctionContents &f, const QueryParts &q, const std::string &result, Stmt body) {
    return query_lets(q, result, Block::make(check_result(f, result), body));
}

// The query of f's output over <required>: its answers, the region f
// computes (ExternStages.h), as lets <region>.min.d/.max.d/.extent.d.
// Where the query failed (`result` not 0, checked later) the region is
// the one required.
QueryParts output_query(const FunctionContents &f, const std::string &required, const std::string &region,
                        const std::string &prefix, const std::string &result) {
    std::vector<std::string> outputs;
    QueryParts q = extern_query(f, required, prefix, false, &outputs);
    q.answers.clear(); // what it reads is asked over the region it computes
    Expr answer = handle_var(outputs[0]), ok = EQ::make(var_int32(result), int32_const(0));
    for (size_t d = 0; d < f.args.size(); d++) {
        std::string suffix = "." + std::to_string(d);
        Expr dim = int32_const((int64_t)d);
        Expr min = Call::make(Int(32), "buffer_get_min", {answer, dim}, Call::Intrinsic);
        Expr extent = Call::make(Int(32), "buffer_get_extent", {answer, dim}, Call::Intrinsic);
        Expr req_min = buffer_field(required, "min", (int)d), req_max = buffer_field(required, "max", (int)d);
        // Bounds inference sees the region required (promise_clamped to it).
        auto seen_as = [&](const Expr &e, const Expr &point) {
            return Call::make(Int(32), "promise_clamped", {Select::make(ok, e, point), point, point}, Call::Intrinsic);
        };
        Expr lo = var_int32(region + ".min" + suffix), hi = var_int32(region + ".max" + suffix);
        q.answers.emplace_back(region + ".min" + suffix, seen_as(Min::make(req_min, min), req_min));
        q.answers.emplace_back(region + ".max" + suffix, seen_as(Max::make(req_max, max_of(min, extent)), req_max));
        q.answers.emplace_back(region + ".extent" + suffix, Add::make(Sub::make(hi, lo), int32_const(1)));
    }
    return q;
}

// extern_stage; with `required`, asking first for its output over that
// region and computing the region answered (extern_stage_computing_answer).
Stmt make_stage(const FunctionContents &f, const std::string &region, bool is_output,
                const std::function<Stmt(const Stmt &)> &place, const std::string &required) {
    const Call *stage = f.values[0].as<Call>();
    internal_assert(stage && stage->name == "extern_stage") << f.name << " is not an extern stage";
    const std::string prefix = f.name + ".extern.";
    std::vector<Expr> args;
    std::vector<Stmt> reads;
    for (size_t j = 0; j < stage->args.size(); j++) {
        const Expr &a = stage->args[j];
        int kind = f.extern_def->arg_kinds[j];
        if (kind == ExprArg) {
            args.push_back(a);
            continue;
        }
        const Call *c = a.as<Call>();
        internal_assert(c) << "extern stage argument " << j << " of " << f.name;
        std::vector<Expr> coords;
        if (kind == FuncArg) {
            const FunctionContents &g = *find_function(c->name);
            std::string q = prefix + "q" + std::to_string(j);
            // g's realization; one stored outside the loop it is computed
            // in is cropped to the region asked for, as upstream's (which
            // is all storage folding needs to keep: storage_folding).
            const bool crop = stored_apart(g);
            for (size_t i = 0; i < g.values.size(); i++) {
                args.push_back(
                    storage_buffer(g, value_buffer(g, i), g.name, g.values[i].type(), [&](int d, bool extent) {
                        std::string suffix = "." + std::to_string(d);
                        return crop ? var_int32(q + (extent ? ".extent" : ".min") + suffix)
                                    : buffer_field(g.name, extent ? "extent" : "min", d);
                    }));
            }
            for (size_t d = 0; d < g.args.size(); d++) {
                std::string suffix = "." + std::to_string(d);
                coords.push_back(anywhere_in(var_int32(q + ".min" + suffix), var_int32(q + ".max" + suffix)));
            }
        } else {
            // A buffer input: passed whole. It is read where the root query
            // (extern_input_queries, over every region of f computed) says.
            args.push_back(handle_var(c->name + ".buffer"));
            std::string q = root_prefix(f) + "q" + std::to_string(j);
            for (size_t d = 0; d < c->args.size(); d++) {
                std::string suffix = "." + std::to_string(d);
                coords.push_back(anywhere_in(var_int32(q + ".min" + suffix), var_int32(q + ".max" + suffix)));
            }
        }
        reads.push_back(Evaluate::make(Call::make(c->type, c->name, coords, c->call_type, 0, c->callee)));
    }
    // The outputs: <region> of f's storage (an output's own buffer per value).
    std::vector<Expr> written, zeros;
    for (size_t i = 0; i < f.values.size(); i++) {
        Type t = f.values[i].type();
        std::string storage = is_output ? value_buffer(f, i) : f.name;
        args.push_back(storage_buffer(f, value_buffer(f, i), storage, t, [&](int d, bool extent) {
            return buffer_field(region, extent ? "extent" : "min", d);
        }));
        zeros.push_back(make_zero(t));
    }
    for (size_t d = 0; d < f.args.size(); d++) {
        written.push_back(anywhere_in(buffer_field(region, "min", (int)d), buffer_field(region, "max", (int)d)));
    }
    reads.push_back(Provide::make(f.name, zeros, written));

    std::string result = prefix + "result";
    Stmt call =
        LetStmt::make(result, Call::make(Int(32), f.extern_symbol, args, Call::Extern), check_result(f, result));
    Stmt marker = IfThenElse::make(Call::make(Bool(), kMarker, {}, Call::Intrinsic), Block::make(reads));
    Stmt s = place(Block::make(marker, call));
    // The bounds query (made even without Func inputs, as upstream makes it).
    if (required.empty()) {
        return with_query(f, extern_query(f, region, prefix, true), prefix + "query", s);
    }
    // Asked first for its output over the region required, then over the
    // region it answered for what it reads (as upstream asks): all the lets
    // first (the loops around keep them symbolic), then the checks.
    std::string first = prefix + "out.query";
    s = Block::make({check_result(f, first), check_result(f, prefix + "query"), s});
    s = query_lets(extern_query(f, region, prefix, true), prefix + "query", s);
    return query_lets(output_query(f, required, region, prefix + "out.", first), first, s);
}

} // namespace

Stmt extern_stage(const FunctionContents &f, const std::string &region, bool is_output,
                  const std::function<Stmt(const Stmt &)> &place) {
    return make_stage(f, region, is_output, place, "");
}

Stmt extern_stage_computing_answer(const FunctionContents &f, const std::string &required, const std::string &region,
                                   const std::function<Stmt(const Stmt &)> &place) {
    internal_assert(!required.empty() && required != region);
    return make_stage(f, region, false, place, required);
}

bool reads_funcs(const FunctionContents &f) {
    return f.extern_def && std::any_of(f.extern_def->arg_kinds.begin(), f.extern_def->arg_kinds.end(),
                                       [](int k) { return k == FuncArg; });
}

Stmt unbound_by_root(const Stmt &s, const FunctionContents &f, bool *used) {
    const std::string prefix = root_prefix(f);
    auto is_root = [&](const Expr &e) {
        const Variable *v = e.as<Variable>();
        return v && v->name.compare(0, prefix.size(), prefix) == 0;
    };
    class Unwrap : public IRMutator {
    public:
        explicit Unwrap(const std::function<bool(const Expr &)> &is_root) : is_root_(is_root) {}
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            if (op->call_type == Call::Intrinsic && op->name == kRootBound && op->args.size() == 3 &&
                is_root_(op->args[1]) && is_root_(op->args[2])) {
                return mutate(op->args[0]);
            }
            return IRMutator::visit(op);
        }

    private:
        const std::function<bool(const Expr &)> &is_root_;
    };
    // Used where, with the promises taken off, a root answer is still named.
    class Uses : public IRVisitor {
    public:
        explicit Uses(const std::function<bool(const Expr &)> &is_root) : is_root_(is_root) {}
        bool found = false;
        using IRVisitor::visit;
        void visit(const Variable *op) override { found = found || is_root_(op); }

    private:
        const std::function<bool(const Expr &)> &is_root_;
    };
    std::function<bool(const Expr &)> root = is_root;
    Stmt unwrapped = Unwrap(root).mutate(s);
    Uses uses(root);
    unwrapped.accept(&uses);
    *used = uses.found;
    return uses.found ? s : unwrapped;
}

bool reads_buffers(const FunctionContents &f) {
    return f.extern_def && std::any_of(f.extern_def->arg_kinds.begin(), f.extern_def->arg_kinds.end(),
                                       [](int k) { return k == BufferArg || k == ImageParamArg; });
}

void extern_root_query(const FunctionContents &f, const Box &region, std::vector<std::pair<std::string, Expr>> &lets,
                       std::vector<Stmt> &checks) {
    const std::string prefix = root_prefix(f);
    for (size_t d = 0; d < region.size(); d++) {
        std::string suffix = "." + std::to_string(d);
        Expr min = var_int32(prefix + "region.min" + suffix), max = var_int32(prefix + "region.max" + suffix);
        lets.emplace_back(prefix + "region.min" + suffix, region[d].min);
        lets.emplace_back(prefix + "region.max" + suffix, region[d].max);
        lets.emplace_back(prefix + "region.extent" + suffix, Add::make(Sub::make(max, min), int32_const(1)));
    }
    QueryParts q = extern_query(f, prefix + "region", prefix);
    lets.insert(lets.end(), q.buffers.begin(), q.buffers.end());
    lets.emplace_back(prefix + "query", q.call);
    lets.insert(lets.end(), q.answers.begin(), q.answers.end());
    checks.push_back(check_result(f, prefix + "query"));
}

void check_extern_inputs(const Environment &env, const std::set<std::string> &inlined) {
    for (const auto &[name, f] : env) {
        // copy_to_host/copy_to_device: upstream makes the copy an extern
        // stage, so its source may not be inlined either.
        const Call *copied = f->buffer_copy && f->defined() ? f->values[0].as<Call>() : nullptr;
        if (copied && inlined.count(copied->name)) {
            user_error << "Func " << copied->name
                       << " cannot be scheduled to be computed inline, because it is used in the "
                          "externally-computed function "
                       << (f->original ? f->original->name : f->name);
        }
        if (!f->extern_def) {
            continue;
        }
        const Call *stage = f->values[0].as<Call>();
        for (size_t j = 0; stage && j < stage->args.size(); j++) {
            const Call *c = stage->args[j].as<Call>();
            if (f->extern_def->arg_kinds[j] == FuncArg && c && inlined.count(c->name)) {
                user_error << "Func " << c->name
                           << " cannot be scheduled to be computed inline, because it is used in the "
                              "externally-computed function "
                           << f->name;
            }
        }
    }
}

void choose_extern_symbols(Environment &env, const Target &target) {
    for (auto &[name, f] : env) {
        if (!f->extern_def) {
            continue;
        }
        const ExternDefinition &def = *f->extern_def;
        bool cplusplus = target.has_feature(Target::CPlusPlusMangling);
        user_assert(def.mangling != (int)NameMangling::CPlusPlus || cplusplus)
            << "Target must specify C++ name mangling (\"c_plus_plus_name_mangling\") in order to call C++ externs. ("
            << def.name << ")";
        bool mangled =
            def.mangling == (int)NameMangling::CPlusPlus || (def.mangling == (int)NameMangling::Default && cplusplus);
        f->extern_symbol = mangled ? def.cplusplus_name : def.name;
    }
}

Stmt strip_extern_markers(const Stmt &s) {
    return StripMarkers().mutate(s);
}

} // namespace Internal
} // namespace Halide
