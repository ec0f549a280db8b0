// See TupleSelect.h.
#include "Halide/TupleSelect.h"

#include "Halide/Error.h"
#include "Halide/Func.h"

namespace Halide {

namespace {

void check_sizes(size_t conditions, const Tuple &true_value, const Tuple &false_value) {
    user_assert(true_value.size() == false_value.size())
        << "select() on Tuples requires the true and false values to have the same size, but they have sizes "
        << true_value.size() << " and " << false_value.size();
    user_assert(conditions == 1 || conditions == true_value.size())
        << "select() on Tuples with a Tuple of conditions requires one condition per value: " << conditions
        << " conditions for " << true_value.size() << " values";
}

} // namespace

Tuple select(const Expr &condition, const Tuple &true_value, const Tuple &false_value) {
    check_sizes(1, true_value, false_value);
    std::vector<Expr> values;
    for (size_t i = 0; i < true_value.size(); i++) {
        values.push_back(select(condition, true_value[i], false_value[i]));
    }
    return Tuple(values);
}

Tuple select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value) {
    check_sizes(condition.size(), true_value, false_value);
    std::vector<Expr> values;
    for (size_t i = 0; i < true_value.size(); i++) {
        values.push_back(select(condition[i], true_value[i], false_value[i]));
    }
    return Tuple(values);
}

Expr select(const Expr &condition, const FuncRef &true_value, const FuncRef &false_value) {
    return select(condition, Expr(true_value), Expr(false_value));
}

Expr mux(const Expr &id, const Tuple &values) {
    return mux(id, values.as_vector());
}

Expr mux(const Expr &id, const std::initializer_list<FuncRef> &values) {
    std::vector<Expr> exprs;
    for (const FuncRef &f : values) {
        exprs.emplace_back(f);
    }
    return mux(id, exprs);
}

Tuple mux(const Expr &id, const std::vector<Tuple> &values) {
    user_assert(!values.empty()) << "mux needs at least one value";
    std::vector<Expr> result;
    for (size_t i = 0; i < values[0].size(); i++) {
        std::vector<Expr> column;
        for (const Tuple &t : values) {
            user_assert(t.size() == values[0].size())
                << "mux of Tuples requires every Tuple to have the same size, but they have sizes " << values[0].size()
                << " and " << t.size();
            column.push_back(t[i]);
        }
        result.push_back(mux(id, column));
    }
    return Tuple(result);
}

Tuple mux(const Expr &id, const std::initializer_list<Tuple> &values) {
    return mux(id, std::vector<Tuple>(values));
}

} // namespace Halide
