// See Passes.h: the `profile` target feature. The statement becomes
//
//   allocate profiler_instance = halide_profiler_instance_start(...)
//       (freed by halide_profiler_instance_end on every way out)
//     ...
//     produce f { halide_profiler_set_current_func(instance, id(f)); ... }
//     consume f { halide_profiler_set_current_func(instance, id(outer)); ... }
//     allocate f[...] { halide_profiler_memory_allocate(...); ...; halide_profiler_memory_free(...) }
//     parallel for (...) {                       (the caller waits meanwhile)
//       halide_profiler_incr_active_threads(instance, 1); set_current_func; body;
//       halide_profiler_incr_active_threads(instance, -1)
//     }
//
// Func ids 0, 1 and 2 are "overhead", "halide_malloc" and "halide_free", as
// upstream's report lists them; the Funcs follow in the order their
// productions appear.
#include <map>
#include <set>

#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "ir/AllocationSize.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

const char *const kInstance = "profiler_instance";
constexpr int kMallocId = 1, kFreeId = 2;

class InjectProfiling : public IRMutator {
public:
    explicit InjectProfiling(const std::set<std::string> &unlisted) : unlisted_(unlisted) {}
    std::vector<std::string> names = {"overhead", "halide_malloc", "halide_free"};

    using IRMutator::visit;

    Stmt visit(const ProducerConsumer *op) override {
        if (unlisted_.count(op->name)) {
            return IRMutator::visit(op); // billed to the Func around it
        }
        if (op->is_producer) {
            int id = id_of(op->name);
            int outer = current_;
            current_ = id;
            Stmt body = mutate(op->body);
            current_ = outer;
            return ProducerConsumer::make_produce(op->name, Block::make(set_current(id), body));
        }
        return ProducerConsumer::make_consume(op->name, Block::make(set_current(current_), mutate(op->body)));
    }

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (op->for_type != ForType::Parallel) {
            return body.same_as(op->body) ? Stmt(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        body = Block::make({active_threads(1), set_current(current_), body, active_threads(-1)});
        // The calling thread takes tasks too: it counts once, as a task.
        return Block::make({active_threads(-1), For::make(op->name, op->min, op->extent, op->for_type, body),
                            active_threads(1), set_current(current_)});
    }

    Stmt visit(const Allocate *op) override {
        Stmt body = mutate(op->body);
        if (op->new_expr.defined() || op->memory_type == MemoryType::Stack || op->memory_type == MemoryType::Register) {
            return body.same_as(op->body) ? Stmt(op)
                                          : Allocate::make(op->name, op->type, op->memory_type, op->extents, body,
                                                           op->new_expr, op->free_function);
        }
        // What codegen puts on the stack is not heap.
        if (auto_allocation_on_stack(op)) {
            return body.same_as(op->body) ? Stmt(op)
                                          : Allocate::make(op->name, op->type, op->memory_type, op->extents, body);
        }
        Expr bytes = make_const(UInt(64), op->type.bytes());
        for (const Expr &e : op->extents) {
            bytes = Mul::make(bytes, Cast::make(UInt(64), e));
        }
        std::string func = func_of_allocation(op->name);
        int id = unlisted_.count(func) ? current_ : id_of(func);
        Expr uc = Variable::make(Handle(), "__user_context");
        // The allocation itself is billed to halide_malloc, its release to halide_free.
        Stmt counted = Block::make({set_current(current_),
                                    Evaluate::make(Call::make(Int(32), "halide_profiler_memory_allocate",
                                                              {uc, instance(), id, bytes}, Call::Extern)),
                                    body,
                                    Evaluate::make(Call::make(Int(32), "halide_profiler_memory_free",
                                                              {uc, instance(), id, bytes}, Call::Extern)),
                                    set_current(kFreeId)});
        return Block::make({set_current(kMallocId),
                            Allocate::make(op->name, op->type, op->memory_type, op->extents, counted),
                            set_current(current_)});
    }

private:
    const std::set<std::string> &unlisted_;
    std::map<std::string, int> ids_;
    int current_ = 0;

    int id_of(const std::string &name) {
        auto [it, added] = ids_.emplace(name, (int)names.size());
        if (added) {
            names.push_back(name);
        }
        return it->second;
    }

    // A Tuple-valued Func's buffers are <f>.0, <f>.1, ...: billed to f.
    static std::string func_of_allocation(const std::string &name) {
        size_t dot = name.rfind('.');
        if (dot == std::string::npos || dot + 1 == name.size() ||
            name.find_first_not_of("0123456789", dot + 1) != std::string::npos) {
            return name;
        }
        return name.substr(0, dot);
    }

    static Expr instance() { return Variable::make(Handle(), std::string(kInstance) + ".host"); }

    static Stmt set_current(int id) {
        return Evaluate::make(Call::make(Int(32), "halide_profiler_set_current_func", {instance(), id}, Call::Extern));
    }

    static Stmt active_threads(int delta) {
        return Evaluate::make(
            Call::make(Int(32), "halide_profiler_incr_active_threads", {instance(), delta}, Call::Extern));
    }
};

} // namespace

Stmt inject_profiling(const Stmt &s, const std::string &pipeline_name, const std::set<std::string> &unlisted) {
    InjectProfiling inject(unlisted);
    Stmt body = inject.mutate(s);
    std::string joined;
    for (const std::string &n : inject.names) {
        joined += n + "\n";
    }
    Expr uc = Variable::make(Handle(), "__user_context");
    Expr start = Call::make(Handle(), "halide_profiler_instance_start",
                            {uc, StringImm::make(pipeline_name), (int)inject.names.size(), StringImm::make(joined)},
                            Call::Extern);
    return Allocate::make(kInstance, UInt(8), MemoryType::Heap, {}, body, start, "halide_profiler_instance_end");
}

} // namespace Internal
} // namespace Halide
