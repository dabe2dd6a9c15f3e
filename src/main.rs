fn main() {
    std::process::exit(bot_arena::cli::main());
}
