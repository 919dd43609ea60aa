// Sixth C++ workload: exceptions of several types thrown from recursive
// frames and caught at several depths (rethrown, translated, caught by
// catch (...)), RAII objects whose destructors run during unwinding, a
// function-try-block on a constructor, a noexcept function that catches
// internally, a function template instantiated with nested templates of
// two dozen long class names (mangled names of 1,000 to 1,600
// characters), names with UTF-8 characters in a namespace and a class, a
// virtual call site over twelve class-template instantiations, and members
// no run calls.  argv: COUNT.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

namespace unwind {
struct Fault {
  int depth;
  explicit Fault(int d) : depth(d) {}
  virtual ~Fault() {}
  virtual int code() const { return 1; }
};
struct DeepFault : Fault {
  explicit DeepFault(int d) : Fault(d) {}
  int code() const override { return 100 + depth; }
};
struct Translated : std::runtime_error {
  int from;
  Translated(int f) : std::runtime_error("translated"), from(f) {}
};

long g_cleanups = 0;
struct Guard {
  int tag;
  explicit Guard(int t) : tag(t) {}
  ~Guard() {
    if (tag % 3 == 0)
      g_cleanups += tag;
    else
      g_cleanups -= 1;
  }
};

__attribute__((noinline)) long thrower(int kind, int depth) {
  switch (kind % 5) {
  case 0: throw Fault(depth);
  case 1: throw DeepFault(depth);
  case 2: throw std::out_of_range("range");
  case 3: throw depth;
  default: return depth * 2;
  }
}

__attribute__((noinline)) long descend(int depth, int limit, int kind) {
  Guard g(depth);
  if (depth == limit)
    return thrower(kind, depth);
  if (depth % 4 == 1) {
    try {
      return descend(depth + 1, limit, kind) + 1;
    } catch (DeepFault &f) {
      if (f.depth % 2)
        throw Translated(f.depth);
      return f.code();
    }
  }
  if (depth % 4 == 3) {
    try {
      return descend(depth + 1, limit, kind) * 2;
    } catch (int v) {
      if (v > 6)
        throw;
      return -v;
    }
  }
  return descend(depth + 1, limit, kind) + depth;
}

__attribute__((noinline)) long top(int limit, int kind) {
  try {
    return descend(0, limit, kind);
  } catch (Translated &t) {
    return 1000 + t.from;
  } catch (Fault &f) {
    return 2000 + f.code();
  } catch (std::exception &) {
    return 3000;
  } catch (...) {
    return 4000;
  }
}

long quiet(int x) noexcept {
  try {
    if (x % 7 == 0)
      throw std::runtime_error("seven");
    return x;
  } catch (const std::exception &) {
    return -x;
  }
}

struct Fragile {
  long v;
  explicit Fragile(int x) try : v(x % 11 == 0 ? thrower(x, x) : x) {
  } catch (...) {
    g_cleanups += 5;
    throw;
  }
};

long build_fragile(int n) {
  long s = 0;
  for (int i = 1; i <= n; i++) {
    try {
      s += Fragile(i).v;
    } catch (...) {
      s -= 1;
    }
  }
  return s;
}

long never_unwinds(int x) {
  try {
    return thrower(4, x);
  } catch (...) {
    return 0;
  }
}
} // namespace unwind

namespace manifest_of_the_long_haul_freight_consolidation_service {
template <class... T> struct bundle {};
template <class A, class B> struct lashed {};
#define CRATE(n) struct crate_of_assorted_hardware_components_number_##n {};
CRATE(a) CRATE(b) CRATE(c) CRATE(d) CRATE(e) CRATE(f) CRATE(g) CRATE(h) CRATE(i) CRATE(j)
CRATE(k) CRATE(l) CRATE(m) CRATE(n) CRATE(o) CRATE(p) CRATE(q) CRATE(r) CRATE(s) CRATE(t)
CRATE(u) CRATE(v) CRATE(w) CRATE(x) CRATE(y) CRATE(z)
#define C(n) crate_of_assorted_hardware_components_number_##n
using first_leg = bundle<C(a), lashed<C(b), bundle<C(c), C(d), lashed<C(e), C(f)>>>, C(g),
                         bundle<C(h), lashed<C(i), bundle<C(j), C(k), C(l)>>>, C(m)>;
using second_leg = lashed<bundle<C(n), C(o), C(p)>, bundle<C(q), lashed<C(r), C(s)>, C(t),
                                                          bundle<C(u), C(v), C(w), C(x)>>>;
using whole_route = lashed<first_leg, bundle<second_leg, C(y)>>;
using other_route = lashed<first_leg, bundle<second_leg, C(z), first_leg>>;

template <class T> __attribute__((noinline)) long ship(long x) {
  long r = x;
  for (int i = 0; i < (int)(sizeof(T) + (x & 3)); i++)
    r = r * 3 % 10007 + i;
  return r;
}
template <class T, class U> struct depot {
  static __attribute__((noinline)) long transfer(long x) { return ship<T>(x) + ship<U>(x / 2); }
};
} // namespace manifest_of_the_long_haul_freight_consolidation_service

namespace 計算 {
struct Größe {
  long 値;
  long 合計(long x) const { return 値 + x; }
};
__attribute__((noinline)) long λ(long x) { return Größe{x % 97}.合計(x); }
} // namespace 計算

struct Op {
  virtual ~Op() {}
  virtual long apply(long x) const = 0;
  virtual long unused(long x) const { return x; }
};
template <int K> struct Step : Op {
  long apply(long x) const override { return (x * (K + 2) + K) % 65521; }
};
template <int K> struct Flip : Op {
  long apply(long x) const override { return K % 2 ? -x + K : x ^ K; }
  long unused(long x) const override { return x + K; }
};

__attribute__((noinline)) long run_ops(const std::vector<std::unique_ptr<Op>> &ops, int n) {
  long acc = 1;
  for (int i = 0; i < n; i++)
    acc = ops[(i * i + i / 7) % ops.size()]->apply(acc);
  return acc;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc += unwind::top(i % 13, i / 13 + i);
  for (int i = 0; i < n; i++)
    acc += unwind::quiet(i);
  acc += unwind::build_fragile(n / 4);
  namespace M = manifest_of_the_long_haul_freight_consolidation_service;
  for (int i = 0; i < n / 10; i++)
    acc += M::depot<M::whole_route, M::other_route>::transfer(i) + M::ship<M::first_leg>(i);
  if (n > 200)
    acc += M::ship<M::other_route>(n);
  for (int i = 0; i < n; i++)
    acc += 計算::λ(i);
  std::vector<std::unique_ptr<Op>> ops;
  ops.emplace_back(new Step<1>);
  ops.emplace_back(new Step<2>);
  ops.emplace_back(new Step<3>);
  ops.emplace_back(new Flip<4>);
  ops.emplace_back(new Flip<5>);
  ops.emplace_back(new Step<6>);
  ops.emplace_back(new Flip<7>);
  ops.emplace_back(new Step<8>);
  ops.emplace_back(new Flip<9>);
  ops.emplace_back(new Step<10>);
  if (n > 200) {
    ops.emplace_back(new Flip<11>);
    ops.emplace_back(new Step<12>);
  }
  acc += run_ops(ops, n * 3);
  if (argc > 3)
    acc += unwind::never_unwinds(n) + ops[0]->unused(n);
  printf("%ld %ld\n", acc, unwind::g_cleanups);
  return 0;
}
