//! `examples/docker-compose.yml` without a Docker engine: the file is valid YAML with the
//! structure compose needs, its builds name real packages, binaries and Dockerfile stages, and
//! the dealer's command line works: it is played here, by the `dealer` binary as a separate
//! process, against the same bots served by our SDK on 127.0.0.x addresses instead of the
//! service names.

use dealer::tournament::RunResults;
use player::{RunningServer, ServerBuilder};
use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dealer/ is in the workspace")
        .to_path_buf()
}

fn compose() -> Yaml {
    let path = workspace().join("examples/docker-compose.yml");
    let text = std::fs::read_to_string(&path).expect("examples/docker-compose.yml");
    let mut documents = YamlLoader::load_from_str(&text).expect("valid YAML");
    assert_eq!(documents.len(), 1, "one YAML document");
    documents.remove(0)
}

fn text<'a>(yaml: &'a Yaml, what: &str) -> &'a str {
    yaml.as_str()
        .unwrap_or_else(|| panic!("{what} must be a string, got {yaml:?}"))
}

/// A player service: its name, the binary it builds, and its port.
#[derive(Debug)]
struct PlayerService {
    name: String,
    package: String,
    binary: String,
    port: u16,
}

fn services(compose: &Yaml) -> (Vec<PlayerService>, &Yaml) {
    let services = compose["services"].as_hash().expect("a `services` mapping");
    let mut players = Vec::new();
    let mut dealer = None;
    for (name, service) in services {
        let name = text(name, "a service name").to_string();
        let build = &service["build"];
        assert_eq!(text(&build["context"], "build.context"), "..", "{name}");
        assert_eq!(text(&build["dockerfile"], "build.dockerfile"), "Dockerfile");
        let args = &build["args"];
        let package = args["PACKAGE"].as_str().unwrap_or("team").to_string();
        let binary = args["BIN"].as_str().unwrap_or("player").to_string();
        if name == "dealer" {
            assert_eq!(text(&build["target"], "dealer build.target"), "dealer");
            assert_eq!(package, "lean-poker-dealer");
            assert_eq!(binary, "dealer");
            dealer = Some(service);
            continue;
        }
        assert!(
            build["target"].is_badvalue(),
            "{name}: the default (player) stage"
        );
        let port: u16 = text(&service["environment"]["PORT"], "PORT")
            .parse()
            .expect("PORT is a number");
        let exposed: Vec<&str> = service["expose"]
            .as_vec()
            .expect("expose")
            .iter()
            .map(|port| text(port, "an exposed port"))
            .collect();
        assert!(
            exposed.contains(&port.to_string().as_str()),
            "{name} exposes its PORT"
        );
        players.push(PlayerService {
            name,
            package,
            binary,
            port,
        });
    }
    (players, dealer.expect("a dealer service"))
}

/// The dealer's command line, and the `--player NAME=URL` values in it.
fn dealer_command(dealer: &Yaml) -> Vec<String> {
    dealer["command"]
        .as_vec()
        .expect("the dealer's command is a list")
        .iter()
        .map(|arg| text(arg, "a command argument").to_string())
        .collect()
}

fn players_in(command: &[String]) -> BTreeMap<String, String> {
    command
        .windows(2)
        .filter(|pair| pair[0] == "--player")
        .map(|pair| {
            let (name, url) = pair[1].split_once('=').expect("NAME=URL");
            (name.to_string(), url.to_string())
        })
        .collect()
}

#[test]
fn the_compose_file_builds_real_binaries_and_names_every_player() {
    let compose = compose();
    let (players, dealer) = services(&compose);
    assert!(players.len() >= 3, "several player containers");
    let root = workspace();
    let dockerfile = std::fs::read_to_string(root.join("Dockerfile")).unwrap();
    assert!(
        dockerfile.contains(" AS dealer\n"),
        "the Dockerfile has a dealer stage"
    );
    assert!(
        dockerfile.rfind(" AS runtime").unwrap() > dockerfile.find(" AS dealer").unwrap(),
        "the player stage stays the default (last) target"
    );
    for player in &players {
        let source = match player.package.as_str() {
            "team" => root.join("player/team/src/main.rs"),
            "lean-poker-examples" => root.join(format!("examples/src/bin/{}.rs", player.binary)),
            other => panic!("{}: unknown package {other}", player.name),
        };
        assert!(
            source.exists(),
            "{}: {} exists",
            player.name,
            source.display()
        );
    }
    assert!(root.join("dealer/src/main.rs").exists());

    let depends = dealer["depends_on"].as_hash().expect("depends_on");
    for player in &players {
        let condition = &depends[&Yaml::String(player.name.clone())]["condition"];
        assert_eq!(
            text(condition, "condition"),
            "service_healthy",
            "{}",
            player.name
        );
    }
    let volume = text(&dealer["volumes"][0], "a volume");
    let (name, path) = volume.split_once(':').expect("NAME:PATH");
    assert_eq!(
        path, "/data/games",
        "where the dealer image writes its runs"
    );
    assert!(compose["volumes"]
        .as_hash()
        .unwrap()
        .contains_key(&Yaml::String(name.into())));

    let command = dealer_command(dealer);
    assert_eq!(command[0], "run");
    let urls = players_in(&command);
    assert_eq!(urls.len(), players.len(), "every player service plays");
    for player in &players {
        assert_eq!(
            urls.get(&player.name),
            Some(&format!("http://{}:{}/", player.name, player.port)),
            "the dealer reaches {} by its service name",
            player.name
        );
    }
}

/// The house bot a player service's binary serves; the team's own bot (`player`, built from
/// player/team) is no house bot, and the equity bot stands in for it.
fn kind_of(service: &PlayerService) -> dealer::house::BotKind {
    let kind = if service.binary == "player" {
        "equity"
    } else {
        service.binary.as_str()
    };
    kind.parse().expect("a binary named after a house bot kind")
}

fn serve(service: &PlayerService, ip: Ipv4Addr) -> RunningServer {
    ServerBuilder::from_arc(kind_of(service).build(1))
        .address(SocketAddr::from((ip, 0)))
        .workers(1)
        .start()
        .expect("a loopback player")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dealer_command_line_plays_against_the_same_bots_on_loopback() {
    let compose = compose();
    let (players, dealer) = services(&compose);
    let mut command = dealer_command(dealer);
    let mut servers = Vec::new();
    for (index, player) in players.iter().enumerate() {
        let server = serve(player, Ipv4Addr::new(127, 0, 0, 10 + index as u8));
        let service_url = format!("http://{}:{}/", player.name, player.port);
        for arg in &mut command {
            *arg = arg.replace(&service_url, &server.url());
        }
        servers.push(server);
    }
    // Shorter than the real thing: a debug build plays the template's Monte Carlo slowly.
    let games = command.iter().position(|arg| arg == "--games").unwrap();
    command[games + 1] = "2".into();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    command.extend([
        "--hand-limit".to_string(),
        "20".to_string(),
        "--out".to_string(),
        out.to_str().unwrap().to_string(),
    ]);
    let cwd = dir.path().to_path_buf();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_dealer"))
            .args(&command)
            .current_dir(cwd)
            .env_remove("RUST_LOG")
            .output()
            .expect("the dealer runs")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results: RunResults =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert!(results.complete);
    assert_eq!(results.games.len(), 2);
    let names: Vec<&str> = results.players.iter().map(|p| p.name.as_str()).collect();
    let services: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, services);
    for game in &results.games {
        assert!(game.result.bans.is_empty(), "{:?}", game.result.bans);
        assert!(
            game.versions.iter().all(|v| v != "Unknown"),
            "{:?}",
            game.versions
        );
        assert!(out.join(&game.dir).join("log.json").exists());
    }
    drop(servers);
}
