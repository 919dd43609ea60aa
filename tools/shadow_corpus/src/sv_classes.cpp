// C++ workload for the shadow corpus: a class hierarchy with virtual calls,
// templates instantiated twice, lambdas in std::function, an exception path.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace shop {
struct Item {
  virtual ~Item() = default;
  virtual int price(int qty) const = 0;
  virtual const char *name() const { return "item"; }
};
struct Book : Item {
  int price(int qty) const override { return 12 * qty - (qty > 3 ? 5 : 0); }
  const char *name() const override { return "book"; }
};
struct Pen : Item {
  int price(int qty) const override { return qty < 10 ? 2 * qty : qty + 9; }
};
struct Lamp : Item {
  int watts;
  explicit Lamp(int w) : watts(w) {}
  int price(int qty) const override {
    if (watts > 60)
      throw std::runtime_error("too bright");
    return (30 + watts / 10) * qty;
  }
  const char *name() const override { return "lamp"; }
};

template <typename T> T total(const std::vector<T> &xs) {
  T sum{};
  for (const T &x : xs)
    sum += x;
  return sum;
}
} // namespace shop

static int apply_all(const std::vector<std::function<int(int)>> &fs, int x) {
  int r = x;
  for (auto &f : fs)
    r = f(r) % 100003;
  return r;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<std::unique_ptr<shop::Item>> items;
  for (int i = 0; i < n; i++) {
    switch (i % 5) {
    case 0: case 3: items.emplace_back(new shop::Book); break;
    case 1: items.emplace_back(new shop::Pen); break;
    default: items.emplace_back(new shop::Lamp(20 + (i * 7) % 60)); break;
    }
  }
  std::vector<int> prices;
  std::vector<double> ratios;
  std::map<std::string, int> by_name;
  int failures = 0;
  for (size_t i = 0; i < items.size(); i++) {
    try {
      int p = items[i]->price(1 + static_cast<int>(i % 12));
      prices.push_back(p);
      ratios.push_back(p / (1.0 + i));
      by_name[items[i]->name()] += p;
    } catch (const std::exception &) {
      failures++;
    }
  }
  std::vector<std::function<int(int)>> fs = {
      [](int x) { return x * 3 + 1; },
      [n](int x) { return x + n; },
      [](int x) { return x % 2 ? x / 2 : x * 5; },
  };
  int r = apply_all(fs, n);
  std::printf("%d %.2f %zu %d %d\n", shop::total(prices), shop::total(ratios), by_name.size(),
              failures, r);
  return 0;
}
