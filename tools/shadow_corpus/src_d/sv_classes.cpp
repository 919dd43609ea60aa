// Fourth C++ workload: a class template instantiated forty times (forty
// derived classes and vtables) called through a base pointer at one virtual
// call site, a second virtual call site in a function template instantiated
// for three element types, operator overloads (+, *, ==, [], (), <<) on a
// small value type, a variadic fold, recursive templates, lambdas stored in
// a table and generic lambdas instantiated for several types, std::sort with
// a capturing comparator, and members and instantiations no run reaches.
// argv: COUNT.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace zoo {
struct Animal {
  virtual ~Animal() {}
  virtual long feed(long grams) const = 0;
  virtual int legs() const { return 4; }
  virtual long never_fed(long) const { return -1; }
};

template <int N> struct Kind : Animal {
  long feed(long grams) const override {
    if (grams % (N + 2) == 0)
      return grams / (N + 1);
    return grams * (N % 5 + 1) - N;
  }
  int legs() const override { return N % 3 == 0 ? 2 : N % 3 == 1 ? 4 : 6; }
};

template <int N> struct Maker {
  static void add(std::vector<std::unique_ptr<Animal>> &v) {
    Maker<N - 1>::add(v);
    v.emplace_back(new Kind<N>);
  }
};
template <> struct Maker<0> {
  static void add(std::vector<std::unique_ptr<Animal>> &v) { v.emplace_back(new Kind<0>); }
};

struct Vec2 {
  long x, y;
  Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
  Vec2 operator*(long k) const { return {x * k % 100003, y * k % 100003}; }
  bool operator==(const Vec2 &o) const { return x == o.x && y == o.y; }
  long operator[](int i) const { return i ? y : x; }
  long operator()(long a, long b) const { return a * x + b * y; }
  Vec2 &operator<<(int s) {
    x = (x << s) % 65521;
    y = (y << s) % 65521;
    return *this;
  }
};

template <typename T> struct Box {
  T v;
  static Box make(T t) { return Box{t}; }
  template <typename F> auto map(F f) const -> Box<decltype(f(v))> { return {f(v)}; }
};

template <typename... Ts> long sum_all(Ts... ts) {
  long vals[] = {0L, static_cast<long>(ts)...};
  long acc = 0;
  for (long v : vals)
    acc += v;
  return acc;
}

template <unsigned N> struct Fib {
  static unsigned long get() { return Fib<N - 1>::get() + Fib<N - 2>::get(); }
};
template <> struct Fib<1> { static unsigned long get() { return 1; } };
template <> struct Fib<0> { static unsigned long get() { return 0; } };

template <typename T> long feed_all(const std::vector<std::unique_ptr<Animal>> &zoo, T grams) {
  long acc = 0;
  for (size_t i = 0; i < zoo.size(); i++)
    acc += zoo[i]->feed(static_cast<long>(grams) + static_cast<long>(i)) + zoo[i]->legs();
  return acc;
}

template <typename T> T unused_template(T t) { return t + t; }
} // namespace zoo

static long run_lambdas(int n) {
  std::vector<std::function<long(long)>> table;
  for (int i = 0; i < 6; i++)
    table.push_back([i](long x) { return x * (i + 1) - i; });
  table.push_back([](long x) { return x ^ 0x55; });
  table.push_back([n](long x) { return x % (n + 3); });
  auto twice = [](auto f, auto v) { return f(f(v)); };
  long acc = 0;
  for (int i = 0; i < n; i++) {
    acc += table[static_cast<size_t>(i) % table.size()](i);
    acc += twice([](long v) { return v + 1; }, static_cast<long>(i));
    acc += static_cast<long>(twice([](double v) { return v * 1.5; }, static_cast<double>(i % 4)));
    acc += twice([](int v) { return v - 2; }, i);
  }
  return acc;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<std::unique_ptr<zoo::Animal>> all;
  zoo::Maker<39>::add(all);
  std::vector<std::unique_ptr<zoo::Animal>> some;
  for (int i = 0; i < n; i++) {
    int pick = (i * 7 + n) % 40;
    if (pick < 20)
      zoo::Maker<19>::add(some);
    else
      some.emplace_back(new zoo::Kind<39>);
    if (some.size() > 200)
      break;
  }
  long acc = zoo::feed_all(all, n) + zoo::feed_all(some, 3.5) + zoo::feed_all(all, 'a');
  zoo::Vec2 v{1, 2};
  for (int i = 0; i < n; i++) {
    v = v + zoo::Vec2{i, -i} * 3;
    v << (i % 3);
    if (v == zoo::Vec2{0, 0})
      acc++;
    acc += v[i & 1] + v(i, 2);
  }
  auto b = zoo::Box<int>::make(n).map([](int x) { return x * 2.0; }).map([](double d) {
    return static_cast<long>(d) + 1;
  });
  acc += b.v + zoo::sum_all(1, 2L, 3.0, 'x', n) + static_cast<long>(zoo::Fib<20>::get());
  std::vector<long> xs;
  for (int i = 0; i < n; i++)
    xs.push_back((i * 7919L) % 1009);
  int mod = n % 7 + 2;
  std::sort(xs.begin(), xs.end(), [mod](long a, long b) { return a % mod < b % mod || (a % mod == b % mod && a < b); });
  acc += xs.empty() ? 0 : xs.front() + xs.back();
  acc += run_lambdas(n);
  if (n > 100000)
    acc += all[0]->never_fed(acc) + zoo::unused_template(acc);
  std::printf("%ld\n", acc);
  return 0;
}
