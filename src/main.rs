fn main() {
    bot_arena::cli::main(bot_arena::Arena::standard())
}
