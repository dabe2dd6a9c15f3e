fn main() {
    bot_arena::Arena::standard().main()
}
