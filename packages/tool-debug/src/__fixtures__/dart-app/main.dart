void main() {
  final greeting = "hello";
  print(greeting);
}
