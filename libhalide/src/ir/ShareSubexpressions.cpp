// See ShareSubexpressions.h. Two walks over the graph, each node once:
// the first counts each node's tree size and how many edges reach it; the
// second rebuilds the expression with the repeated nodes as variables,
// their lets (in the order their values were first finished, so each value
// names only earlier lets) around the result.
#include "ir/ShareSubexpressions.h"

#include <map>
#include <string>
#include <vector>

#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Util.h"

namespace Halide {
namespace Internal {
namespace {

uint64_t saturating_add(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// Each node of the graph once, children first.
class GraphCounts : public IRVisitor {
public:
    struct Node {
        uint64_t size = 0; // as a tree
        int uses = 0;      // edges reaching it
        bool has_call = false;
    };
    explicit GraphCounts(const std::map<std::string, uint64_t> *let_sizes = nullptr) : let_sizes_(let_sizes) {}
    std::map<const IRNode *, Node> nodes;
    std::vector<const IRNode *> order; // children before parents
    bool has_let = false;
    uint64_t total = 0;

    using IRVisitor::visit;
#define HALIDE_IR_NODE(N)                                                                                              \
    void visit(const N *op) override {                                                                                 \
        enter(op);                                                                                                     \
    }
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE

private:
    template <typename T> void enter(const T *op) {
        auto it = nodes.find(op);
        if (it != nodes.end()) {
            it->second.uses++;
            total = saturating_add(total, it->second.size);
            call_ = call_ || it->second.has_call;
            return;
        }
        uint64_t outer_total = total;
        bool outer_call = call_;
        total = 0;
        call_ = false;
        IRVisitor::visit(op);
        Node n;
        n.size = saturating_add(total, own_size(op));
        n.uses = 1;
        n.has_call = call_ || op->node_type == IRNodeType::Call;
        has_let = has_let || op->node_type == IRNodeType::Let;
        nodes[op] = n;
        order.push_back(op);
        total = saturating_add(outer_total, n.size);
        call_ = outer_call || n.has_call;
    }
    template <typename T> uint64_t own_size(const T *) {
        return 1;
    }
    uint64_t own_size(const Variable *op) {
        if (let_sizes_) {
            auto it = let_sizes_->find(op->name);
            if (it != let_sizes_->end()) {
                return it->second;
            }
        }
        return 1;
    }
    bool call_ = false;
    const std::map<std::string, uint64_t> *let_sizes_;
};

// Rebuilds with the chosen nodes replaced by their let's variable; each
// node is rebuilt once.
class Rebuild : public IRMutator {
public:
    explicit Rebuild(const std::map<const IRNode *, std::string> &names) : names_(names) {}
    std::vector<std::pair<std::string, Expr>> lets;

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined()) {
            return e;
        }
        auto done = done_.find(e.get());
        if (done != done_.end()) {
            return done->second;
        }
        Expr rebuilt = IRMutator::mutate(e);
        auto name = names_.find(e.get());
        if (name != names_.end()) {
            lets.emplace_back(name->second, rebuilt);
            rebuilt = Variable::make(e.type(), name->second);
        }
        done_[e.get()] = rebuilt;
        return rebuilt;
    }

private:
    const std::map<const IRNode *, std::string> &names_;
    std::map<const IRNode *, Expr> done_;
};

} // namespace

uint64_t tree_size(const Expr &e, const std::map<std::string, uint64_t> *let_sizes) {
    GraphCounts counts(let_sizes);
    counts.include(e);
    return counts.total;
}

Expr share_repeated_subexpressions(const Expr &e, uint64_t min_tree) {
    if (!e.defined()) {
        return e;
    }
    GraphCounts counts;
    counts.include(e);
    if (counts.total <= min_tree || counts.total <= counts.nodes.size() || counts.has_let) {
        return e;
    }
    std::map<const IRNode *, std::string> names;
    for (const IRNode *n : counts.order) {
        const GraphCounts::Node &c = counts.nodes.at(n);
        if (c.uses > 1 && c.size > 1 && !c.has_call && n != e.get()) {
            names[n] = unique_name('t');
        }
    }
    if (names.empty()) {
        return e;
    }
    Rebuild rebuild(names);
    Expr result = rebuild.mutate(e);
    for (auto it = rebuild.lets.rbegin(); it != rebuild.lets.rend(); ++it) {
        result = Let::make(it->first, it->second, result);
    }
    return result;
}

} // namespace Internal
} // namespace Halide
