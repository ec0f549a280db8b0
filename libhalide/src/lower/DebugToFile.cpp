// See Passes.h: Func::debug_to_file. After storage flattening, a Func f
// with a debug file becomes
//
//   allocate f[...] {
//     ...the statements computing f...
//     let f.debug_to_file.result = halide_debug_to_file(uc, "file", buffer_make(f.host, f's region))
//     assert(f.debug_to_file.result == 0, halide_error_debug_to_file_failed(uc, "f", "file", result))
//     ...its consumers...
//   }
//
// placed after the last statement that writes f, descending into lets,
// blocks, other allocations and the one branch of an if that writes f (so a
// bounds query, which computes nothing, writes nothing). An output is
// dumped through its own buffer argument after its production.
#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "ir/BlockList.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

Expr handle_var(const std::string &name) {
    return Variable::make(Handle(), name);
}

// Whether s stores to `buffer` (or is an extern stage computing it).
bool writes(const Stmt &s, const std::string &buffer) {
    class Finder : public IRVisitor {
    public:
        const std::string &buffer;
        bool found = false;
        explicit Finder(const std::string &b) : buffer(b) {}
        using IRVisitor::visit;
        void visit(const Store *op) override {
            found = found || op->name == buffer;
            IRVisitor::visit(op);
        }
        void visit(const LetStmt *op) override {
            found = found || op->name == buffer + ".extern.result";
            IRVisitor::visit(op);
        }
    } finder(buffer);
    finder.include(s);
    return finder.found;
}

// s (which writes `buffer`) with `dump` after its last write.
Stmt place_after_writes(const Stmt &s, const std::string &buffer, const Stmt &dump) {
    if (const LetStmt *let = s.as<LetStmt>();
        let && let->name != buffer + ".extern.result" && writes(let->body, buffer)) {
        return LetStmt::make(let->name, let->value, place_after_writes(let->body, buffer, dump));
    }
    if (const Allocate *a = s.as<Allocate>(); a && writes(a->body, buffer)) {
        return Allocate::make(a->name, a->type, a->memory_type, a->extents, place_after_writes(a->body, buffer, dump),
                              a->new_expr, a->free_function);
    }
    if (const IfThenElse *i = s.as<IfThenElse>()) {
        bool in_then = writes(i->then_case, buffer);
        bool in_else = i->else_case.defined() && writes(i->else_case, buffer);
        if (in_then != in_else) {
            return in_then
                       ? IfThenElse::make(i->condition, place_after_writes(i->then_case, buffer, dump), i->else_case)
                       : IfThenElse::make(i->condition, i->then_case, place_after_writes(i->else_case, buffer, dump));
        }
    }
    if (s.as<Block>()) {
        std::vector<Stmt> list = block_statements(s);
        size_t last = list.size();
        for (size_t i = 0; i < list.size(); i++) {
            if (writes(list[i], buffer)) {
                last = i;
            }
        }
        if (last < list.size()) {
            list[last] = place_after_writes(list[last], buffer, dump);
            return Block::make(list);
        }
    }
    return Block::make(s, dump);
}

// The call writing `buf` to f's file, and its check.
Stmt dump_stmt(const FunctionContents &f, const Expr &buf) {
    const std::string result = f.name + ".debug_to_file.result";
    Expr uc = handle_var("__user_context");
    Expr call = Call::make(Int(32), "halide_debug_to_file", {uc, StringImm::make(f.debug_file), buf}, Call::Extern);
    Expr r = var_int32(result);
    Stmt check =
        AssertStmt::make(EQ::make(r, int32_const(0)),
                         Call::make(Int(32), "halide_error_debug_to_file_failed",
                                    {uc, StringImm::make(f.name), StringImm::make(f.debug_file), r}, Call::Extern));
    return LetStmt::make(result, call, check);
}

// A halide_buffer_t over the allocation of f (its host, region and strides).
Expr allocation_buffer(const FunctionContents &f) {
    Type t = f.values[0].type();
    std::vector<Expr> args = {handle_var(f.name + ".host"), int32_const(0),
                              int32_const(t.code()),        int32_const(t.bits()),
                              int32_const(t.lanes()),       int32_const((int64_t)f.args.size())};
    for (int d = 0; d < (int)f.args.size(); d++) {
        args.push_back(buffer_field(f.name, "min", d));
        args.push_back(buffer_field(f.name, "extent", d));
        args.push_back(buffer_field(f.name, "stride", d));
    }
    return Call::make(Handle(), "buffer_make", args, Call::Intrinsic);
}

class InjectDebugToFile : public IRMutator {
public:
    explicit InjectDebugToFile(const std::map<std::string, const FunctionContents *> &funcs) : funcs_(funcs) {}
    using IRMutator::visit;
    Stmt visit(const Allocate *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = funcs_.find(op->name);
        const Allocate *a = s.as<Allocate>();
        if (it == funcs_.end() || !a || !writes(a->body, op->name)) {
            return s;
        }
        Stmt body = place_after_writes(a->body, op->name, dump_stmt(*it->second, allocation_buffer(*it->second)));
        return Allocate::make(a->name, a->type, a->memory_type, a->extents, body, a->new_expr, a->free_function);
    }

private:
    const std::map<std::string, const FunctionContents *> &funcs_;
};

} // namespace

Stmt inject_debug_to_file(const Stmt &s, const Environment &env, const std::vector<FunctionPtr> &outputs) {
    std::map<std::string, const FunctionContents *> internal;
    std::vector<const FunctionContents *> dumped_outputs;
    for (const auto &[name, f] : env) {
        if (f->debug_file.empty()) {
            continue;
        }
        user_assert(f->values.size() == 1)
            << "debug_to_file of Func " << f->name << ": Funcs with several values (Tuples) can't be written to a file";
        bool is_output = false;
        for (const FunctionPtr &o : outputs) {
            is_output = is_output || o->name == f->name;
        }
        if (is_output) {
            dumped_outputs.push_back(f.get());
        } else {
            internal[f->name] = f.get();
        }
    }
    Stmt result = internal.empty() ? s : InjectDebugToFile(internal).mutate(s);
    for (const FunctionContents *f : dumped_outputs) {
        if (writes(result, f->name)) {
            result = place_after_writes(result, f->name, dump_stmt(*f, handle_var(f->name + ".buffer")));
        }
    }
    return result;
}

} // namespace Internal
} // namespace Halide
