// Third C++ workload: an anonymous namespace (local linkage, so names get a
// file prefix), exceptions thrown and caught, operator overloads, a class
// template with a static member function, a virtual call site over six
// classes with virtual destructors, std::function, and a member template.
// argv: COUNT.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {
struct Counter {
  int n = 0;
  Counter &operator+=(int v) {
    n += v > 0 ? v : -v;
    return *this;
  }
  bool operator<(const Counter &o) const { return n < o.n; }
};

int hidden(int x) { return x % 5 == 0 ? x / 5 : x; }
} // namespace

namespace zoo {
struct Animal {
  virtual ~Animal() = default;
  virtual int legs() const = 0;
  virtual int noise(int t) const { return t; }
};
struct Cat : Animal { int legs() const override { return 4; } int noise(int t) const override { return t * 2; } };
struct Bird : Animal { int legs() const override { return 2; } };
struct Snake : Animal { int legs() const override { return 0; } int noise(int t) const override { return -t; } };
struct Spider : Animal { int legs() const override { return 8; } };
struct Fish : Animal { int legs() const override { return 0; } int noise(int) const override { return 0; } };
struct Ant : Animal { int legs() const override { return 6; } };

template <typename T, int K> struct Pen {
  static int capacity() { return K * static_cast<int>(sizeof(T)); }
  template <typename F> int each(const std::vector<std::unique_ptr<Animal>> &v, F f) const {
    int s = 0;
    for (const auto &a : v)
      s += f(*a);
    return s;
  }
};
} // namespace zoo

int checked_div(int a, int b) {
  if (b == 0)
    throw std::runtime_error("zero");
  return a / b;
}

int safe_div(int a, int b) {
  try {
    return checked_div(a, b);
  } catch (const std::exception &) {
    return -1;
  }
}

int never_used_member_user(zoo::Animal &a) { return a.legs() * 100; }

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<std::unique_ptr<zoo::Animal>> v;
  for (int i = 0; i < n; i++) {
    switch (i % 9) {
    case 0: case 1: case 2: v.emplace_back(new zoo::Cat); break;
    case 3: v.emplace_back(new zoo::Bird); break;
    case 4: case 5: v.emplace_back(new zoo::Snake); break;
    case 6: v.emplace_back(new zoo::Spider); break;
    case 7: v.emplace_back(new zoo::Fish); break;
    default: v.emplace_back(new zoo::Ant); break;
    }
  }
  Counter c;
  for (int i = 0; i < n; i++)
    c += v[i]->legs() - v[(i * 7) % n]->noise(i);
  zoo::Pen<long, 3> pen;
  int legs = pen.each(v, [](const zoo::Animal &a) { return a.legs(); });
  std::function<int(int)> f = [&](int x) { return hidden(x) + legs; };
  int acc = c.n + f(n) + zoo::Pen<char, 7>::capacity();
  for (int i = 0; i < n; i++)
    acc += safe_div(100, i % 4);
  Counter d;
  d += acc;
  if (d < c)
    acc++;
  std::printf("%d\n", acc);
  return 0;
}
