// `rainet belief`: fits the learned belief model on game records and scores beliefs against the
// truth (docs/ai.md, "Belief").
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "ai/belief_training.h"
#include "cli/options.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kBelief{
    "belief",
    "belief train --out FILE [--stride N] [--l2 X] [--cards-of PLAYER] DIR... | belief eval "
    "[--cards-of PLAYER] "
    "[--model FILE] DIR...",
    "fits the learned belief on full game records (every 5th game held out), or scores beliefs",
    run};
RAINET_COMMAND(belief, kBelief);

// Every record file under the directories, in name order (so a split is reproducible).
Result<std::vector<Record>> loadRecords(const std::vector<std::string>& dirs) {
    std::vector<std::filesystem::path> files;
    for (const auto& d : dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(d, ec)) return Error{"'" + d + "' is not a directory"};
        for (const auto& e : std::filesystem::directory_iterator(d))
            if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<Record> games;
    for (const auto& f : files) {
        std::ifstream in(f);
        std::stringstream text;
        text << in.rdbuf();
        auto r = parseRecord(text.str());
        if (!r.ok()) return Error{f.string() + ": " + r.error().message};
        if (r->isPublic) return Error{f.string() + ": a public record has no identities"};
        games.push_back(std::move(*r));
    }
    if (games.empty()) return Error{"no records (*.txt) found"};
    return games;
}

constexpr int kPlies[] = {10, 20, 40};

void printScores(const std::vector<Record>& games, const ai::EvidenceModel* candidate,
                 const std::string& cardsOf = "") {
    std::printf("%-10s %4s %6s %9s %7s\n", "belief", "ply", "cards", "log-loss", "brier");
    struct Row {
        const char* name;
        ai::Evidence evidence;
        const ai::EvidenceModel* model;
    };
    const Row rows[] = {{"uniform", ai::Evidence::None, nullptr},
                        {"heuristic", ai::Evidence::Heuristic, nullptr},
                        {candidate ? "fitted" : "learned", ai::Evidence::Learned, candidate}};
    // (eval --model: "fitted" is the given model)
    for (const Row& row : rows) {
        for (int ply : kPlies) {
            const auto s = ai::scoreBelief(games, ply, row.evidence, row.model, cardsOf);
            std::printf("%-10s %4d %6d %9.4f %7.4f\n", row.name, ply, s.cards, s.logLoss, s.brier);
        }
    }
}

int run(const Args& args) {
    auto app = makeApp(kBelief);
    app->require_subcommand(1);
    CLI::App* trainCmd = app->add_subcommand("train", "fit a belief model");
    CLI::App* evalCmd = app->add_subcommand("eval", "score the beliefs");
    std::string out, cardsOf, modelFile;
    int stride = 2;
    double l2 = 1.0;
    std::vector<std::string> dirs;
    trainCmd->add_option("--out", out, "the model file written")->required();
    trainCmd->add_option("--stride", stride, "one sample every N plies")
        ->check(CLI::PositiveNumber);
    trainCmd->add_option("--l2", l2, "L2 regularisation")->check(CLI::NonNegativeNumber);
    evalCmd->add_option("--model", modelFile, "score this model as the learned belief");
    for (CLI::App* mode : {trainCmd, evalCmd}) {
        mode->add_option("--cards-of", cardsOf, "only the cards of this player");
        mode->add_option("DIR", dirs, "directories of full game records")
            ->required()
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    }
    if (auto status = parseArgs(*app, kBelief, args)) return *status;
    const bool train = trainCmd->parsed();
    auto games = loadRecords(dirs);
    if (!games.ok()) {
        std::fprintf(stderr, "rainet belief: %s\n", games.error().message.c_str());
        return 1;
    }
    if (!train) {
        std::optional<ai::EvidenceModel> model;
        if (!modelFile.empty()) {
            std::ifstream in(modelFile);
            std::stringstream text;
            text << in.rdbuf();
            auto m = ai::parseEvidenceModel(text.str());
            if (!in || !m.ok()) {
                std::fprintf(stderr, "rainet belief: %s: %s\n", modelFile.c_str(),
                             in ? m.error().message.c_str() : "cannot read");
                return 1;
            }
            model = *m;
        }
        std::printf("%zu games\n", games->size());
        printScores(*games, model ? &*model : nullptr, cardsOf);
        return 0;
    }
    std::vector<Record> fit, heldOut;
    for (std::size_t i = 0; i < games->size(); ++i)
        (i % 5 == 4 ? heldOut : fit).push_back((*games)[i]);
    ai::BeliefDataset data;
    for (const Record& g : fit) ai::addSamples(g, stride, data, cardsOf);
    const ai::EvidenceModel model = ai::fitEvidenceModel(data, l2);
    std::string origin = "rainet belief train --out " + out + " --stride " +
                         std::to_string(stride) + " --l2 " + std::to_string(l2);
    if (!cardsOf.empty()) origin += " --cards-of " + cardsOf;
    for (const auto& d : dirs) origin += " " + d;
    std::ofstream(out) << ai::formatEvidenceModel(model, origin);
    std::printf("%zu games fitted (%zu samples, %d + %d escapes), %zu held out\n", fit.size(),
                data.features.size(), data.escapedLinks, data.escapedViruses, heldOut.size());
    for (int j = 0; j < ai::kFeatureCount; ++j)
        std::printf("  %-14s %+.4f\n", ai::featureName(j), model.weights[j]);
    std::printf("  %-14s %+.4f\n", "escaped", model.escaped);
    std::printf("held-out games:\n");
    printScores(heldOut, &model, cardsOf);
    return 0;
}

}  // namespace
}  // namespace rainet::cli
