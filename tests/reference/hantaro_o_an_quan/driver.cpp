// Plays seeded random games of Ô ăn quan in Hantaro171902/o-an-quan
// (src/main.cpp, a terminal game in C++) and writes them as kete's
// reference traces, one game a JSON line (see tests/reference.rs).
//
//     driver CHECKOUT SEED GAMES OUT.jsonl
//
// The driver is a program of its own, compiled outside this repository
// with the checkout's src/ folder on the include path: it includes
// "main.cpp" with its `main` renamed, and uses its board, `makeMove` and
// `isGameOver`; CHECKOUT is read for its commit. Nothing of it is copied
// here. What the game prints goes to the null device. Game g of the run
// uses the seed SEED + g (a splitmix64 generator of the driver's own).
//
// The turn is played as its `main` plays one: when `isGameOver()` (both
// quan pieces taken, or no small stone on the board) the small stones left
// are cleared, not counted (`collectRemainStones`), and the points decide;
// a player without a stone in his five pits passes; otherwise he picks a
// pit and a direction, `makeMove` sows it, and the other player moves.
// Where neither player has a stone in his pits but the game is not over
// (stones are left in a quan pit), its `main` would pass for ever: the
// driver ends the trace there, unfinished.
// Its legal moves are every occupied pit of the mover, both ways; but
// `makeMove` relays for as long as the pit after the last seed holds
// stones, and some relays never end (it would never return). Each move is
// played in a child process given one second: one that has not returned
// by then is left out of the legal moves written here (kete leaves out a
// move whose relay never ends too).
//
// Its board: `board[i]` = {small stones, mandarin} for 0..4 player 1's
// pits from his left, 5 the quan at his right, 6..10 player 2's pits from
// his left, 11 the other quan: kete's order. Player 1 moves first and is
// kete's South. Direction 1 (its "R") sows with increasing index,
// anticlockwise (kete's `>`), -1 clockwise (`<`). A mandarin is worth 10
// points when taken. The token is the board in that order (`*` while a
// mandarin is in its quan), the two scores and S or N.

#define main hantaro_main
#include "main.cpp"
#undef main

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
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

static std::string token(int player) {
    std::string s;
    for (int c = 0; c < 12; c++) {
        s += std::to_string(board[c].smallStones);
        if (board[c].hasMandarin) s += "*";
        s += "-";
    }
    s += std::to_string(score[0]) + "-" + std::to_string(score[1]) + "-" + (player == 1 ? "S" : "N");
    return s;
}

static std::string move_name(int pit, int direction) {
    char letter = pit < 5 ? char('A' + pit) : char('a' + pit - 6);
    return std::string(1, letter) + (direction == 1 ? ">" : "<");
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

// The board and scores after `makeMove(pit, player, direction)`, played in
// a child process; false when it has not returned within a second.
static bool try_move(int pit, int player, int direction, Pit (&after)[12], int (&points)[2]) {
    int fd[2];
    if (pipe(fd) != 0) return false;
    pid_t child = fork();
    if (child == 0) {
        close(fd[0]);
        makeMove(pit, player, direction);
        ssize_t n = write(fd[1], board, sizeof board);
        n += write(fd[1], score, sizeof score);
        _exit(n == (ssize_t)(sizeof board + sizeof score) ? 0 : 1);
    }
    close(fd[1]);
    char buf[sizeof board + sizeof score];
    size_t got = 0;
    bool ok = true;
    while (got < sizeof buf) {
        struct pollfd p = {fd[0], POLLIN, 0};
        if (poll(&p, 1, 1000) <= 0) {
            ok = false;
            break;
        }
        ssize_t n = read(fd[0], buf + got, sizeof buf - got);
        if (n <= 0) {
            ok = false;
            break;
        }
        got += (size_t)n;
    }
    close(fd[0]);
    if (!ok) kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    if (!ok) return false;
    memcpy(after, buf, sizeof board);
    memcpy(points, buf + sizeof board, sizeof score);
    return true;
}

static bool can_move(int player) {
    int lo = player == 1 ? 0 : 6;
    for (int i = lo; i < lo + 5; i++)
        if (board[i].smallStones > 0) return true;
    return false;
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
    std::string implementation =
        "Hantaro171902/o-an-quan@" + commit_of(checkout) + " src/main.cpp";
    // The game's own printing.
    if (!freopen("/dev/null", "w", stdout)) return 1;
    if (!freopen("/dev/null", "w", stderr)) return 1;
    const int max_plies = 3000;
    for (int gi = 0; gi < games; gi++) {
        long long seed = first + gi;
        rng_state = (uint64_t)seed;
        for (auto& p : board) p = Pit{};
        score[0] = score[1] = 0;
        initializeBoard();
        int player = 1;
        std::string start = token(player);
        std::string plies;
        std::string end = "{\"over\": false, \"result\": null, \"seeds\": null}";
        for (int ply = 0; ply < max_plies;) {
            if (isGameOver()) {
                collectRemainStones();
                const char* result = score[0] > score[1]   ? "p1win"
                                     : score[1] > score[0] ? "p2win"
                                                           : "draw";
                end = std::string("{\"over\": true, \"result\": \"") + result +
                      "\", \"seeds\": [" + std::to_string(score[0]) + ", " +
                      std::to_string(score[1]) + "]}";
                break;
            }
            if (!can_move(player)) {
                if (!can_move(player == 1 ? 2 : 1)) {
                    // Stones are left only in the quan pits: its main
                    // would pass back and forth for ever.
                    end = "{\"over\": false, \"result\": null, \"seeds\": null, "
                          "\"why\": \"neither player can move and the game is not over: its main passes for ever\"}";
                    break;
                }
                // Its main passes (the empty row gives nothing away).
                player = player == 1 ? 2 : 1;
                continue;
            }
            int lo = player == 1 ? 0 : 6;
            struct Tried {
                int pit, direction;
                Pit after[12];
                int points[2];
            };
            std::vector<Tried> moves;
            std::vector<std::string> names;
            for (int i = lo; i < lo + 5; i++) {
                if (board[i].smallStones == 0) continue;
                for (int d : {1, -1}) {
                    Tried t{i, d, {}, {0, 0}};
                    if (!try_move(i, player, d, t.after, t.points)) continue;
                    moves.push_back(t);
                    names.push_back(move_name(i, d));
                }
            }
            if (moves.empty()) {
                end = "{\"over\": false, \"result\": null, \"seeds\": null, \"why\": \"every move hangs\"}";
                break;
            }
            std::sort(names.begin(), names.end());
            const Tried& chosen = moves[next_random() % moves.size()];
            std::pair<int, int> mv{chosen.pit, chosen.direction};
            memcpy(board, chosen.after, sizeof board);
            memcpy(score, chosen.points, sizeof score);
            player = player == 1 ? 2 : 1;
            ply++;
            // The pass that follows, if the game goes on, is in the
            // position: the other player is to move.
            int shown = player;
            if (!isGameOver() && !can_move(player) && can_move(player == 1 ? 2 : 1))
                shown = player == 1 ? 2 : 1;
            std::string legal;
            for (size_t i = 0; i < names.size(); i++) legal += (i ? ", \"" : "\"") + names[i] + "\"";
            if (!plies.empty()) plies += ", ";
            plies += "{\"legal\": [" + legal + "], \"move\": \"" +
                     move_name(mv.first, mv.second) + "\", \"after\": \"" + token(shown) + "\"}";
        }
        fprintf(out,
                "{\"implementation\": \"%s\", \"game\": \"o-an-quan\", \"seed\": %lld, "
                "\"start\": \"%s\", \"plies\": [%s], \"end\": %s}\n",
                implementation.c_str(), seed, start.c_str(), plies.c_str(), end.c_str());
    }
    fclose(out);
    return 0;
}
