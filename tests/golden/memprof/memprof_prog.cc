// Heap-profiled program for the MemProf goldens (see make_goldens.py).
#include <cstdlib>
#include <cstring>
#include <vector>

__attribute__((noinline)) static char *make_block(int n) {
  char *p = static_cast<char *>(malloc(n));
  memset(p, 1, n);
  return p;
}

__attribute__((noinline)) static char *helper_short(int i) { return make_block(16 + i % 3); }

__attribute__((noinline)) static char *helper_long(int i) { return make_block(64 + i); }

struct Node {
  Node *next;
  int value;
};

__attribute__((noinline)) static Node *push(Node *head, int v) {
  Node *n = new Node;
  n->next = head;
  n->value = v;
  return n;
}

int main() {
  int sum = 0;
  for (int i = 0; i < 100; i++) {
    char *p = helper_short(i);
    sum += p[0];
    free(p);
  }
  std::vector<char *> kept;
  for (int i = 0; i < 10; i++)
    kept.push_back(helper_long(i));
  Node *head = nullptr;
  for (int i = 0; i < 50; i++)
    head = push(head, i);
  for (Node *n = head; n; n = n->next)
    sum += n->value;
  for (char *p : kept) {
    for (int k = 0; k < 64; k++)
      sum += p[k];
    free(p);
  }
  while (head) {
    Node *next = head->next;
    delete head;
    head = next;
  }
  return sum == 0;
}
