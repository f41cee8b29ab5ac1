// Plays seeded random games of Ô ăn quan in IamKrill1n/o-an-quan's `Game`
// (bot/game.cpp, C++) and writes them as kete's reference traces, one game
// a JSON line (see tests/reference.rs).
//
//     driver CHECKOUT SEED GAMES OUT.jsonl
//
// The driver is a program of its own, compiled outside this repository
// with the checkout's bot/ folder on the include path (it includes
// "game.cpp", the class and nothing else); CHECKOUT is read for its
// commit. Nothing of it is copied here. Game g of the run uses the seed
// SEED + g (a splitmix64 generator of the driver's own).
//
// Its board: `state[c]` = {small seeds, big pieces} for cells 0..11, 0 the
// left quan, 1..5 player 0's squares from his left, 6 the right quan, 7..11
// player 1's squares from his left (the top row, right to left seen from
// player 0). That is kete's order: the token is cells 1..5, 6 (the right
// end pit, `*` while its quan is there), 7..11, 0 (the left one), the two
// players' points and S or N. Player 0 moves first and is kete's South. A
// move is {cell, direction}: direction 1 sows with increasing cells,
// anticlockwise (kete's `>`), 0 clockwise (`<`).
//
// Points: its captures add small seeds and 5 for a quan (its
// mandarinValue); its refill of an empty row takes 5 points, which may go
// below 0 (borrowing). A player's points are written as kete's store: a
// count, or `~` and what he owes when they are below 0. Its refill is made
// at the end of the move before the player's turn (`check_borrow`); kete
// makes it at the start of his move. The driver writes the position after
// each move without that refill (it is the same move's last step and
// undone here: the row back to 0, the 5 points back), so that both write
// the same position; the refill then shows in the next move's position.
//
// End: `check_ending` ends the game when both quan cells hold nothing
// (each player then takes the seeds of his row into his points), or when
// a player's points are below -50. Its `possible_move` lists every
// occupied square of the mover both ways.

#include "game.cpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

static uint64_t rng_state;
static uint64_t next_random() {
    rng_state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static std::string points(int p) {
    return p < 0 ? "~" + std::to_string(-p) : std::to_string(p);
}

static std::string token(const Game& g) {
    std::string s;
    auto cell = [&](int c) {
        s += std::to_string(g.state[c][0]);
        if (g.state[c][1]) s += "*";
        s += "-";
    };
    for (int c = 1; c <= 11; c++) cell(c);
    cell(0);
    s += points(g.P1points) + "-" + points(g.P2points) + "-" + (g.turn == 0 ? "S" : "N");
    return s;
}

static std::string move_name(const Move& m) {
    char letter = m.cell < 6 ? char('A' + m.cell - 1) : char('a' + m.cell - 7);
    return std::string(1, letter) + (m.direction == 1 ? ">" : "<");
}

static std::string commit_of(const std::string& checkout) {
    std::string cmd = "git -C '" + checkout + "' rev-parse HEAD";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[64] = {0};
    if (p && fgets(buf, sizeof buf, p)) {
        pclose(p);
        std::string c(buf);
        while (!c.empty() && (c.back() == '\n' || c.back() == '\r')) c.pop_back();
        return c;
    }
    return "unknown";
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: driver CHECKOUT SEED GAMES OUT.jsonl\n");
        return 2;
    }
    std::string checkout = argv[1];
    long long first = atoll(argv[2]);
    int games = atoi(argv[3]);
    FILE* out = fopen(argv[4], "w");
    if (!out) return 1;
    std::string implementation = "IamKrill1n/o-an-quan@" + commit_of(checkout) + " bot/game.cpp";
    const int max_plies = 3000;
    for (int gi = 0; gi < games; gi++) {
        long long seed = first + gi;
        rng_state = (uint64_t)seed;
        Game g;
        g.reset();
        std::string plies;
        std::string end = "{\"over\": false, \"result\": null, \"seeds\": null}";
        for (int ply = 0; ply < max_plies; ply++) {
            std::vector<Move> moves = g.possible_move();
            if (moves.empty()) {
                end = "{\"over\": false, \"result\": null, \"seeds\": null, \"why\": \"no move\"}";
                break;
            }
            std::vector<std::string> names;
            for (auto& m : moves) names.push_back(move_name(m));
            std::vector<std::string> sorted = names;
            std::sort(sorted.begin(), sorted.end());
            Move mv = moves[next_random() % moves.size()];
            int next = g.turn ^ 1;
            int before_next = next == 0 ? g.P1points : g.P2points;
            g.make_move(mv);
            int ending = g.check_ending();
            // Undo the refill made for the next player (see above).
            Game shown = g;
            int now_next = next == 0 ? shown.P1points : shown.P2points;
            if (ending == 0 && now_next == before_next - 5) {
                int lo = next == 0 ? 1 : 7;
                for (int c = lo; c < lo + 5; c++) shown.state[c][0] = 0;
                if (next == 0) shown.P1points += 5; else shown.P2points += 5;
            }
            std::string legal;
            for (size_t i = 0; i < sorted.size(); i++) {
                legal += (i ? ", \"" : "\"") + sorted[i] + "\"";
            }
            if (!plies.empty()) plies += ", ";
            plies += "{\"legal\": [" + legal + "], \"move\": \"" + move_name(mv) +
                     "\", \"after\": \"" + token(shown) + "\"}";
            if (ending != 0) {
                const char* result = ending == 1 ? "p1win" : ending == 2 ? "p2win" : "draw";
                // The points are the final counts, unless one is below 0
                // (kete's counts stop at 0).
                std::string seeds = (g.P1points >= 0 && g.P2points >= 0)
                    ? "[" + std::to_string(g.P1points) + ", " + std::to_string(g.P2points) + "]"
                    : "null";
                end = std::string("{\"over\": true, \"result\": \"") + result +
                      "\", \"seeds\": " + seeds + "}";
                break;
            }
        }
        Game start;
        start.reset();
        fprintf(out,
                "{\"implementation\": \"%s\", \"game\": \"o-an-quan\", \"seed\": %lld, "
                "\"start\": \"%s\", \"plies\": [%s], \"end\": %s}\n",
                implementation.c_str(), seed, token(start).c_str(), plies.c_str(), end.c_str());
    }
    fclose(out);
    return 0;
}
