// Eleventh C++ workload (role of vcalls.cpp), in clang 14's default C++14
// plus the C++17 extensions every release accepts there with a warning (if
// constexpr, fold expressions, structured bindings): a class template
// Layer<N> that derives from Layer<N-1> and overrides virtual functions at
// every level, instantiated 48 levels deep (48 vtables, names of long
// template argument lists), walked by recursive variadic templates and fold
// expressions over index packs; nested generic lambdas three levels deep
// inside a function template and a member function template (mangled names
// with 'lambda' and $_N pieces, some of them hundreds of characters long);
// virtual member functions placed in a custom section, cold and hot; a
// member function and a free function template with target_clones (clones
// with dotted names, called directly and through a member pointer and a
// function pointer); std::thread workers that make the same virtual calls
// in lock-step turns (deterministic counts) with thread_local objects that
// have constructors and destructors (TLS wrapper and init functions), a
// static thread_local member and a thread_local inside a function; and
// members no run calls.  argv: COUNT.
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

static volatile unsigned sink;

struct Base {
  virtual ~Base() {}
  virtual unsigned eval(unsigned x) const = 0;
  virtual unsigned depth() const { return 0; }
  __attribute__((section(".text.sv_cls_virt"), noinline)) virtual unsigned placed(unsigned x) const {
    return x ^ 0x55;
  }
  __attribute__((cold, noinline)) virtual unsigned rarely(unsigned x) const { return x + 1000; }
  virtual unsigned never(unsigned x) const { return x * 0; }
};

template <int N> struct Layer : Layer<N - 1> {
  unsigned eval(unsigned x) const override {
    if (constexpr_pick(N)) return Layer<N - 1>::eval(x) + N;
    return x * 3 + N;
  }
  unsigned depth() const override { return N; }
  __attribute__((section(".text.sv_cls_virt"), noinline)) unsigned placed(unsigned x) const override {
    if constexpr (N % 3 == 0) return x + N;
    else return Layer<N - 1>::placed(x) ^ N;
  }
  static constexpr bool constexpr_pick(int n) { return n % 4 == 1; }
};
template <> struct Layer<0> : Base {
  unsigned eval(unsigned x) const override { return x; }
  __attribute__((hot, noinline)) unsigned rarely(unsigned x) const override { return x - 1; }
};

// Build one object per level through an index pack (a fold over a comma).
template <int... I> void make_all(std::vector<Base *> &out, std::integer_sequence<int, I...>) {
  (out.push_back(new Layer<I>()), ...);
}
template <class... T> unsigned sum_all(T... v) { return (0u + ... + static_cast<unsigned>(v)); }
template <int N> unsigned unroll(unsigned x) {
  if constexpr (N == 0) return x;
  else return unroll<N - 1>(x * 31 + N) ^ (x >> (N % 7));
}

// Multiversioned member and free function template.
struct Kernel {
  unsigned base;
#if defined(__x86_64__)
  __attribute__((target_clones("avx2", "default"))) unsigned run(unsigned x) const;
#else
  unsigned run(unsigned x) const;
#endif
};
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
unsigned Kernel::run(unsigned x) const {
  unsigned s = base;
  for (unsigned k = 0; k < (x & 15); k++) s += k * x;
  return s;
}
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "sse4.2", "default")))
#endif
unsigned scale(unsigned x) {
  return x % 5 ? x * 7 : x / 5;
}

// Nested generic lambdas.
template <class F> unsigned apply_nested(F f, unsigned x) {
  auto outer = [f](auto a) {
    return [f, a](auto b) { return [f, a, b](unsigned c) { return f(a + b + c) + (a > b ? 1u : 2u); }; };
  };
  return outer(x)(x >> 1)(x & 7);
}
struct Holder {
  unsigned k;
  template <class T> unsigned visit(T t) const {
    auto l1 = [this](auto v) { return [this, v](auto w) { return v * k + w; }; };
    return l1(t)(t + 1) + (t % 2 ? 0u : 1u);
  }
};

// Thread-local objects with constructors and destructors.
struct Tally {
  unsigned hits;
  Tally() : hits(1) {}
  ~Tally() { sink += hits; }
  void bump(unsigned v) { hits += v & 3; }
};
thread_local Tally tl_tally;
struct Stats {
  static thread_local unsigned calls;
};
thread_local unsigned Stats::calls = 0;
static unsigned local_tl(unsigned v) {
  thread_local std::vector<unsigned> seen;
  seen.push_back(v);
  return static_cast<unsigned>(seen.size());
}

static std::mutex lock;
static std::condition_variable cond;
static int turn;

static unsigned thread_work(const std::vector<Base *> &objs, int me, int rounds) {
  unsigned acc = 0;
  for (int r = 0; r < rounds; r++) {
    std::unique_lock<std::mutex> g(lock);
    cond.wait(g, [&] { return turn % 2 == me; });
    const Base *b = objs[(unsigned)(r * 7 + me * 13) % objs.size()];
    acc += b->eval((unsigned)r) + b->placed((unsigned)r);
    tl_tally.bump((unsigned)r);
    Stats::calls++;
    acc += local_tl((unsigned)r);
    turn++;
    cond.notify_all();
  }
  return acc + tl_tally.hits + Stats::calls;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? std::atoi(argv[1]) : 10;
  std::vector<Base *> objs;
  make_all(objs, std::make_integer_sequence<int, 48>{});
  unsigned acc = 0;
  Kernel kern{3};
  unsigned (Kernel::*mp)(unsigned) const = &Kernel::run;
  unsigned (*fp)(unsigned) = scale;
  Holder h{5};
  for (int i = 0; i < count * 20; i++) {
    const Base *b = objs[(unsigned)(i * i + 3 * i) % objs.size()];
    unsigned x = static_cast<unsigned>(i);
    acc += b->eval(x) + b->depth();
    if (i % 3 == 0) acc += b->placed(x);
    if (i % 41 == 0) acc += b->rarely(x);
    acc += kern.run(x) + (kern.*mp)(x + 1) + scale(x) + fp(x ^ 3);
    acc += apply_nested([](unsigned v) { return v * 2; }, x);
    acc += h.visit(x) + h.visit(static_cast<int>(x & 3));
    auto [q, r] = std::make_pair(x / 7, x % 7);
    acc += sum_all(q, r, b->depth(), 'a', 2L);
  }
  acc += unroll<40>(static_cast<unsigned>(count));
  unsigned out[2] = {0, 0};
  std::thread t0([&] { out[0] = thread_work(objs, 0, count / 4); });
  std::thread t1([&] { out[1] = thread_work(objs, 1, count / 4); });
  t0.join();
  t1.join();
  for (Base *b : objs) delete b;
  std::printf("%u %u %u\n", acc, out[0], out[1]);
  return 0;
}
