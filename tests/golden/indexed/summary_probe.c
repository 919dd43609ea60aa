/* Compiled with -fprofile-use=FILE only to read the summary clang embeds (make_goldens.py). */
int main(void) { return 0; }
