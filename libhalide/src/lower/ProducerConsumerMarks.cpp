// Produce/consume marks, as upstream's lowered statement has them, for the
// user's passes (add_custom_lowering_pass) and Module::functions(): in each
// list of statements, the first run of statements that compute Func f
// (its loops, f.s<k>.<var>, or stores to f's buffer where no loop is left)
// becomes `produce f`, and the statements after it `consume f`. A Func's
// computation found alone (an output's loop nest) is `produce f`. The
// tasks of an async() fork keep their shape (codegen reads it: a loop whose
// body starts with task_acquires); only the work inside each is marked.
#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class MarkProducers : public IRMutator {
public:
    explicit MarkProducers(const Environment &env) : env_(env) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt mutate(const Stmt &s) override {
        std::string f = owner(s);
        if (!f.empty() && !marked_.count(f) && !s.as<Block>()) {
            return ProducerConsumer::make_produce(f, mutate_marked(s, f));
        }
        return IRMutator::mutate(s);
    }

    Stmt visit(const Block *op) override {
        if (is_async_fork(op)) {
            std::vector<Stmt> tasks;
            statements(op->rest, tasks);
            std::vector<Stmt> out{op->first};
            for (const Stmt &t : tasks) {
                const For *loop = t.as<For>();
                const Block *body = loop ? loop->body.as<Block>() : nullptr;
                internal_assert(body) << "async_fork: a task that is not a loop of task_acquires and work";
                Stmt work = Block::make(body->first, mutate(body->rest));
                out.push_back(For::make(loop->name, loop->min, loop->extent, loop->for_type, work));
            }
            return Block::make(out);
        }
        std::vector<Stmt> list;
        statements(self_stmt(op), list);
        std::vector<Stmt> out;
        for (size_t i = 0; i < list.size(); i++) {
            std::string f = owner(list[i]);
            if (f.empty() || marked_.count(f)) {
                out.push_back(mutate(list[i]));
                continue;
            }
            size_t j = i + 1;
            while (j < list.size() && owner(list[j]) == f) {
                j++;
            }
            std::vector<Stmt> produce(list.begin() + i, list.begin() + j);
            std::vector<Stmt> consume(list.begin() + j, list.end());
            out.push_back(ProducerConsumer::make_produce(f, mutate_marked(Block::make(produce), f)));
            if (!consume.empty()) {
                out.push_back(ProducerConsumer::make_consume(f, mutate_marked(Block::make(consume), f)));
            }
            break;
        }
        return Block::make(out);
    }

private:
    // async_fork(n); task loops... (lower/AsyncProducers.cpp): one unit.
    static bool is_async_fork(const Block *b) {
        const Evaluate *e = b ? b->first.as<Evaluate>() : nullptr;
        const Call *c = e ? e->value.as<Call>() : nullptr;
        return c && c->call_type == Call::Intrinsic && c->name == "async_fork";
    }

    // The statements of a sequence of Blocks, an async fork as one of them.
    static void statements(const Stmt &s, std::vector<Stmt> &out) {
        const Block *b = s.as<Block>();
        if (b && !is_async_fork(b)) {
            statements(b->first, out);
            statements(b->rest, out);
        } else if (s.defined()) {
            out.push_back(s);
        }
    }

    Stmt mutate_marked(const Stmt &s, const std::string &f) {
        marked_.insert(f);
        Stmt r = IRMutator::mutate(s);
        marked_.erase(f);
        return r;
    }

    // The Func `name` names: itself, or a Tuple Func's buffer `f.<i>`.
    std::string func_of_buffer(const std::string &name) const {
        if (env_.count(name)) {
            return name;
        }
        size_t dot = name.rfind('.');
        if (dot != std::string::npos && dot + 1 < name.size() &&
            name.find_first_not_of("0123456789", dot + 1) == std::string::npos && env_.count(name.substr(0, dot))) {
            return name.substr(0, dot);
        }
        return "";
    }

    // The Func of a loop f.s<k>.<var> (the longest Func name that fits).
    std::string func_of_loop(const std::string &loop) const {
        std::string best;
        for (size_t s = loop.find(".s"); s != std::string::npos; s = loop.find(".s", s + 1)) {
            size_t digits = s + 2, end = loop.find_first_not_of("0123456789", digits);
            if (end != std::string::npos && end > digits && loop[end] == '.' && env_.count(loop.substr(0, s))) {
                best = loop.substr(0, s);
            }
        }
        return best;
    }

    // Which Func's computation `s` is (through lets, guards and atomics; a
    // list of statements all computing the same Func is that Func's).
    std::string owner(Stmt s) const {
        while (s.defined()) {
            if (is_async_fork(s.as<Block>())) {
                return "";
            }
            if (s.as<Block>()) {
                std::vector<Stmt> list;
                statements(s, list);
                std::string first = owner(list[0]);
                for (const Stmt &item : list) {
                    if (owner(item) != first) {
                        return "";
                    }
                }
                return first;
            }
            if (const LetStmt *l = s.as<LetStmt>()) {
                s = l->body;
            } else if (const IfThenElse *i = s.as<IfThenElse>()) {
                s = i->then_case;
            } else if (const Atomic *a = s.as<Atomic>()) {
                s = a->body;
            } else if (const For *f = s.as<For>()) {
                return func_of_loop(f->name);
            } else if (const Store *st = s.as<Store>()) {
                return func_of_buffer(st->name);
            } else {
                break;
            }
        }
        return "";
    }

    const Environment &env_;
    std::set<std::string> marked_;
};

} // namespace

Stmt mark_producers_consumers(const Stmt &s, const Environment &env) {
    return MarkProducers(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
