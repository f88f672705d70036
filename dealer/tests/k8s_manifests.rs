//! `examples/k8s/` without a cluster: the manifests are valid YAML with the fields the README
//! relies on, the shard job's completion count and `--shard K/N` agree, every index gives a
//! shard the dealer accepts, and the merge job lists every shard folder on the same volume.

use dealer::house::BotKind;
use dealer::tournament::Shard;
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

const INDEX_ANNOTATION: &str = "metadata.annotations['batch.kubernetes.io/job-completion-index']";

fn k8s_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dealer/ is in the workspace")
        .join("examples/k8s")
}

fn manifest(name: &str) -> Yaml {
    let text = std::fs::read_to_string(k8s_dir().join(name)).expect(name);
    let mut documents = YamlLoader::load_from_str(&text).expect("valid YAML");
    assert_eq!(documents.len(), 1, "{name}: one document");
    documents.remove(0)
}

fn text<'a>(yaml: &'a Yaml, what: &str) -> &'a str {
    yaml.as_str()
        .unwrap_or_else(|| panic!("{what} must be a string, got {yaml:?}"))
}

fn strings(yaml: &Yaml, what: &str) -> Vec<String> {
    yaml.as_vec()
        .unwrap_or_else(|| panic!("{what} must be a list, got {yaml:?}"))
        .iter()
        .map(|item| text(item, what).to_string())
        .collect()
}

/// The value after `flag` in `args`.
fn after<'a>(args: &'a [String], flag: &str) -> &'a str {
    let index = args
        .iter()
        .position(|a| a == flag)
        .unwrap_or_else(|| panic!("{flag} missing in {args:?}"));
    args.get(index + 1)
        .unwrap_or_else(|| panic!("{flag} has no value"))
}

/// The claim mounted at `/results` by `container` of `pod`.
fn results_claim(pod: &Yaml, container: &Yaml) -> String {
    let mounts = container["volumeMounts"].as_vec().expect("volumeMounts");
    let mount = mounts
        .iter()
        .find(|m| m["mountPath"].as_str() == Some("/results"))
        .expect("a mount at /results");
    let volume_name = text(&mount["name"], "volumeMounts.name");
    let volume = pod["volumes"]
        .as_vec()
        .expect("volumes")
        .iter()
        .find(|v| v["name"].as_str() == Some(volume_name))
        .expect("the mounted volume");
    text(
        &volume["persistentVolumeClaim"]["claimName"],
        "persistentVolumeClaim.claimName",
    )
    .to_string()
}

fn shard_index_env(container: &Yaml) {
    let env = container["env"].as_vec().expect("env");
    let index = env
        .iter()
        .find(|e| e["name"].as_str() == Some("SHARD_INDEX"))
        .expect("SHARD_INDEX in env");
    assert_eq!(
        text(&index["valueFrom"]["fieldRef"]["fieldPath"], "fieldPath"),
        INDEX_ANNOTATION
    );
}

#[test]
fn the_volume_is_shared_by_every_node() {
    let volume = manifest("volume.yaml");
    assert_eq!(text(&volume["apiVersion"], "apiVersion"), "v1");
    assert_eq!(text(&volume["kind"], "kind"), "PersistentVolumeClaim");
    assert_eq!(text(&volume["metadata"]["name"], "name"), "dealer-results");
    let modes = strings(&volume["spec"]["accessModes"], "accessModes");
    assert!(modes.contains(&"ReadWriteMany".to_string()), "{modes:?}");
}

#[test]
fn the_indexed_job_plays_shard_k_of_n_into_its_own_folder() {
    let job = manifest("shards-job.yaml");
    assert_eq!(text(&job["apiVersion"], "apiVersion"), "batch/v1");
    assert_eq!(text(&job["kind"], "kind"), "Job");
    let spec = &job["spec"];
    assert_eq!(text(&spec["completionMode"], "completionMode"), "Indexed");
    let completions = spec["completions"].as_i64().expect("completions");
    let parallelism = spec["parallelism"].as_i64().expect("parallelism");
    assert!(completions >= 1 && (1..=completions).contains(&parallelism));
    let pod = &spec["template"]["spec"];
    assert_eq!(text(&pod["restartPolicy"], "restartPolicy"), "Never");
    let containers = pod["containers"].as_vec().expect("containers");
    assert_eq!(containers.len(), 1);
    let dealer = &containers[0];
    shard_index_env(dealer);
    let args = strings(&dealer["args"], "args");
    assert_eq!(args[0], "run");
    assert!(args.contains(&"--reproducible".to_string()));
    after(&args, "--seed")
        .parse::<u64>()
        .expect("a numeric --seed");
    after(&args, "--games")
        .parse::<u32>()
        .expect("a numeric --games");
    for (index, arg) in args.iter().enumerate() {
        if arg == "--bot" {
            let (_, kind) = args[index + 1].split_once('=').expect("NAME=KIND");
            kind.parse::<BotKind>().expect("a house bot kind");
        }
    }
    let shard = after(&args, "--shard");
    assert_eq!(shard, format!("$(SHARD_INDEX)/{completions}"));
    let out = after(&args, "--out");
    assert_eq!(out, "/results/shard-$(SHARD_INDEX)");
    for index in 0..completions {
        let expanded = shard.replace("$(SHARD_INDEX)", &index.to_string());
        let parsed: Shard = expanded.parse().expect("a shard the dealer accepts");
        assert_eq!(parsed.index() as i64, index);
        assert_eq!(parsed.count() as i64, completions);
    }
    assert_eq!(results_claim(pod, dealer), "dealer-results");
    // A retried index starts from an empty folder.
    let init = &pod["initContainers"].as_vec().expect("initContainers")[0];
    shard_index_env(init);
    assert_eq!(strings(&init["command"], "command"), ["rm", "-rf", out]);
    assert_eq!(results_claim(pod, init), "dealer-results");
    assert_eq!(init["image"], dealer["image"]);
}

#[test]
fn the_merge_job_lists_every_shard_folder() {
    let shards = manifest("shards-job.yaml");
    let completions = shards["spec"]["completions"].as_i64().unwrap();
    let job = manifest("merge-job.yaml");
    assert_eq!(text(&job["kind"], "kind"), "Job");
    let pod = &job["spec"]["template"]["spec"];
    assert_eq!(text(&pod["restartPolicy"], "restartPolicy"), "Never");
    let merge = &pod["containers"].as_vec().expect("containers")[0];
    let shard_dealer = &shards["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(merge["image"], shard_dealer["image"]);
    let args = strings(&merge["args"], "args");
    assert_eq!(args[0], "merge");
    assert_eq!(after(&args, "--out"), "/results/merged");
    let folders: Vec<String> = (0..completions)
        .map(|k| format!("/results/shard-{k}"))
        .collect();
    assert_eq!(args[3..], folders[..]);
    assert_eq!(results_claim(pod, merge), "dealer-results");
}

#[test]
fn the_readme_names_what_the_manifests_hold() {
    let readme = std::fs::read_to_string(k8s_dir().join("README.md")).unwrap();
    for needle in [
        "volume.yaml",
        "shards-job.yaml",
        "merge-job.yaml",
        "dealer-results",
        "ReadWriteMany",
        "completionMode: Indexed",
        "SHARD_INDEX",
        "batch.kubernetes.io/job-completion-index",
        "dealer-shards",
        "dealer-merge",
        "clear-shard",
        "backoffLimitPerIndex",
        "--target dealer",
    ] {
        assert!(readme.contains(needle), "README.md should mention {needle}");
    }
}
