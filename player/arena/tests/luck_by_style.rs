//! How well the luck of the cards predicts a seat's points, style by style (issue 38): at a
//! table of the real field (the six profiles fitted from real team bots), each style plays
//! plain games (one game a sample), and for each the table gives the correlation of its points
//! with its luck, the coefficient that would fit best (`cov(points, luck) / var(luck)`: 1 when
//! `V` values the style's chips as its points follow them), and how much of the points'
//! variance each adjustment leaves: the whole luck taken out (the coefficient 1), the best
//! single coefficient, and a coefficient for each part (the cards of the seat's own pots, and
//! of other players' pots, `engine::luck::LuckParts`).
//!
//! Ignored (about a minute in the test build):
//! `cargo test -p lean-poker-arena --test arena_tests -- --ignored luck_by_style --nocapture`

use arena::{Arena, SetResult};
use bots::BotKind;

/// Games per style.
const GAMES: u32 = 1_500;

/// The styles: the teaching bots, the house field's archetypes, and the real profiles.
const STYLES: [BotKind; 16] = [
    BotKind::Folder,
    BotKind::CallingStation,
    BotKind::AllIn,
    BotKind::Shover,
    BotKind::Equity,
    BotKind::Solid,
    BotKind::Tight,
    BotKind::Loose,
    BotKind::PushFold,
    BotKind::Raiser,
    BotKind::RealA,
    BotKind::RealB,
    BotKind::RealC,
    BotKind::RealD,
    BotKind::RealE,
    BotKind::RealF,
];

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

fn cov(a: &[f64], b: &[f64]) -> f64 {
    let (ma, mb) = (mean(a), mean(b));
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - ma) * (y - mb))
        .sum::<f64>()
        / (a.len() as f64 - 1.0)
}

/// The least-squares coefficients of `y` on two regressors.
fn two_coefficients(y: &[f64], a: &[f64], b: &[f64]) -> (f64, f64) {
    let (saa, sbb, sab) = (cov(a, a), cov(b, b), cov(a, b));
    let (say, sby) = (cov(a, y), cov(b, y));
    let det = saa * sbb - sab * sab;
    if det.abs() < 1e-12 {
        return (if saa > 0.0 { say / saa } else { 0.0 }, 0.0);
    }
    ((sbb * say - sab * sby) / det, (saa * sby - sab * say) / det)
}

#[test]
#[ignore = "16 styles of 1,500 games: cargo test -p lean-poker-arena --test arena_tests -- --ignored luck_by_style --nocapture"]
fn luck_predicts_points_style_by_style() {
    println!(
        "| style | points a game | corr(points, luck) | best coefficient | variance left: luck whole | best single coefficient | own pots, others' pots coefficients | variance left: two coefficients | corr(points, luck of others' pots) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for style in STYLES {
        let report = Arena::new(BotKind::REAL_FIELD)
            .plain()
            .games(GAMES)
            .seed(38)
            .run(&*style.build(0))
            .unwrap();
        let sets: &[SetResult] = &report.your_sets;
        let y: Vec<f64> = sets.iter().map(|s| f64::from(s.points)).collect();
        let own: Vec<f64> = sets.iter().map(|s| s.luck.own_pots).collect();
        let others: Vec<f64> = sets.iter().map(|s| s.luck.others_pots).collect();
        let luck: Vec<f64> = sets.iter().map(|s| s.luck.total()).collect();
        if let Ok(dir) = std::env::var("LUCK_BY_STYLE_DUMP") {
            let text: String = y
                .iter()
                .zip(&luck)
                .map(|(y, x)| format!("{y},{x}\n"))
                .collect();
            std::fs::write(format!("{dir}/{}.csv", style.name()), text).unwrap();
        }
        let variance = cov(&y, &y);
        let left = |residual: Vec<f64>| cov(&residual, &residual) / variance;
        let best = cov(&y, &luck) / cov(&luck, &luck);
        let (theta_own, theta_others) = two_coefficients(&y, &own, &others);
        let corr = |x: &[f64]| cov(&y, x) / (cov(x, x) * variance).sqrt();
        println!(
            "| {} | {:.3} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}, {:.2} | {:.2} | {:.2} |",
            style.name(),
            mean(&y),
            corr(&luck),
            best,
            left(y.iter().zip(&luck).map(|(y, x)| y - x).collect()),
            left(y.iter().zip(&luck).map(|(y, x)| y - best * x).collect()),
            theta_own,
            theta_others,
            left(
                (0..y.len())
                    .map(|i| y[i] - theta_own * own[i] - theta_others * others[i])
                    .collect()
            ),
            corr(&others),
        );
    }
}
