//! Which cost profile prices this process's plans: found once, never fatal.
//!
//! Search order: a file given explicitly (the CLI's `--profile`), else `$MULTIEXP_PROFILE` (a
//! path), else `<config dir>/multiexp/profile.json` (where `multiexp calibrate` writes), else
//! the built-in profile. A file that cannot be read, is corrupt, or was measured by another
//! multiexp version is skipped with a warning that the caller may show
//! ([`Discovered::warnings`]); the search itself never fails, so no MSM stops for a profile.
//! [`discovered`] runs the search of this process (no explicit file) once and keeps the
//! result: it is what [`crate::Config::default`] plans with.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::profile::Profile;

/// Environment variable naming a profile file.
pub const PROFILE_ENV: &str = "MULTIEXP_PROFILE";

/// `<config dir>/multiexp/profile.json`: where `multiexp calibrate` writes by default and
/// where the search looks; `None` on a system without a config directory.
pub fn default_profile_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("multiexp").join("profile.json"))
}

/// Which cost profile prices a plan.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ProfileChoice {
    /// This process's profile ([`discovered`]): `$MULTIEXP_PROFILE`, else the config-dir file
    /// `multiexp calibrate` wrote, else the built-in one.
    #[default]
    Discovered,
    /// The built-in profile, whatever files exist (reproducible plans).
    Builtin,
    /// This profile.
    Given(Arc<Profile>),
}

impl ProfileChoice {
    /// The profile it names.
    pub fn profile(&self) -> &Profile {
        match self {
            ProfileChoice::Discovered => &discovered().profile,
            ProfileChoice::Builtin => Profile::builtin(),
            ProfileChoice::Given(p) => p,
        }
    }
}

/// Where a profile came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileSource {
    /// A file given explicitly (the CLI's `--profile`).
    File(PathBuf),
    /// `$MULTIEXP_PROFILE`.
    Env(PathBuf),
    /// `<config dir>/multiexp/profile.json`.
    ConfigDir(PathBuf),
    /// The built-in profile, measured on the reference machine.
    Builtin,
}

impl std::fmt::Display for ProfileSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProfileSource::File(p) => write!(f, "{} (--profile)", p.display()),
            ProfileSource::Env(p) => write!(f, "{} (${PROFILE_ENV})", p.display()),
            ProfileSource::ConfigDir(p) => write!(f, "{} (config dir)", p.display()),
            ProfileSource::Builtin => write!(f, "built-in"),
        }
    }
}

/// The places to look for a profile, in order.
#[derive(Clone, Debug, Default)]
pub struct ProfileSearch {
    /// A file given explicitly.
    pub file: Option<PathBuf>,
    /// The value of `$MULTIEXP_PROFILE`.
    pub env: Option<OsString>,
    /// The config-dir file (looked at only if it exists).
    pub config_file: Option<PathBuf>,
}

impl ProfileSearch {
    /// This process's search: `file`, the environment, and the user's config dir.
    pub fn of_process(file: Option<&Path>) -> Self {
        ProfileSearch {
            file: file.map(Path::to_path_buf),
            env: std::env::var_os(PROFILE_ENV).filter(|v| !v.is_empty()),
            config_file: default_profile_path(),
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Discovered {
    /// The profile found (the built-in one when nothing else loads).
    pub profile: Arc<Profile>,
    /// Where it came from.
    pub source: ProfileSource,
    /// One line per file that was skipped, and why.
    pub warnings: Vec<String>,
}

/// The first profile of `search` that loads.
pub fn resolve_profile(search: &ProfileSearch) -> Discovered {
    let mut tried: Vec<(ProfileSource, &Path)> = Vec::new();
    if let Some(p) = &search.file {
        tried.push((ProfileSource::File(p.clone()), p));
    }
    let env = search.env.as_ref().map(PathBuf::from);
    if let Some(p) = &env {
        tried.push((ProfileSource::Env(p.clone()), p));
    }
    if let Some(p) = search.config_file.as_ref().filter(|p| p.exists()) {
        tried.push((ProfileSource::ConfigDir(p.clone()), p));
    }
    let mut warnings = Vec::new();
    for (source, path) in tried {
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| Profile::from_json(&text).map_err(|e| e.to_string()));
        match loaded {
            Ok(profile) => {
                return Discovered {
                    profile: Arc::new(profile),
                    source,
                    warnings,
                }
            }
            Err(reason) => warnings.push(format!(
                "warning: ignoring profile {source}: {reason}; falling back to the next \
                 profile source (last: the built-in profile)"
            )),
        }
    }
    Discovered {
        profile: Arc::new(Profile::builtin().clone()),
        source: ProfileSource::Builtin,
        warnings,
    }
}

/// This process's profile: [`resolve_profile`] of [`ProfileSearch::of_process`] without an
/// explicit file, searched on first use and kept for the life of the process.
pub fn discovered() -> &'static Discovered {
    static FOUND: OnceLock<Discovered> = OnceLock::new();
    FOUND.get_or_init(|| resolve_profile(&ProfileSearch::of_process(None)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{Host, Weights, MULTIEXP_VERSION};

    /// One test's scratch directory, removed with its files when the test ends.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(test: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("multiexp-profile-{}-{test}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, name: &str) -> PathBuf {
            self.0.join(name)
        }

        /// A valid profile whose bn254-g1 task weight is `marker`, written to `name`.
        fn profile(&self, name: &str, marker: f64, version: &str) -> PathBuf {
            let mut p = Profile::empty(Host {
                multiexp_version: version.into(),
                ..Host::default()
            });
            let spec = crate::curves::spec("bn254-g1").unwrap();
            let mut w = Weights::estimate_for(&spec);
            w.task = marker;
            p.curves.insert(spec.name.into(), w);
            let path = self.file(name);
            std::fs::write(&path, p.to_json()).unwrap();
            path
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn resolve(search: &ProfileSearch) -> (f64, ProfileSource, Vec<String>) {
        let found = resolve_profile(search);
        let spec = crate::curves::spec("bn254-g1").unwrap();
        (
            found.profile.weights(&spec).task,
            found.source,
            found.warnings,
        )
    }

    #[test]
    fn profile_sources_are_tried_file_then_env_then_config_dir() {
        let dir = Scratch::new("order");
        let file = dir.profile("file.json", 1.0, MULTIEXP_VERSION);
        let env = dir.profile("env.json", 2.0, MULTIEXP_VERSION);
        let config = dir.profile("config.json", 3.0, MULTIEXP_VERSION);
        let all = ProfileSearch {
            file: Some(file.clone()),
            env: Some(env.clone().into()),
            config_file: Some(config.clone()),
        };
        assert_eq!(resolve(&all).0, 1.0);
        let no_file = ProfileSearch {
            file: None,
            ..all.clone()
        };
        assert_eq!(resolve(&no_file).0, 2.0);
        let config_only = ProfileSearch {
            env: None,
            ..no_file
        };
        let (task, source, warnings) = resolve(&config_only);
        assert_eq!((task, source), (3.0, ProfileSource::ConfigDir(config)));
        assert!(warnings.is_empty());
    }

    #[test]
    fn a_corrupt_or_foreign_profile_warns_and_falls_back() {
        let dir = Scratch::new("fallback");
        let corrupt = dir.file("corrupt.json");
        std::fs::write(&corrupt, "{ \"version\": 2, \"host\": ").unwrap();
        let foreign = dir.profile("foreign.json", 4.0, "0.0.0-other");
        let env = dir.profile("env-ok.json", 5.0, MULTIEXP_VERSION);
        let (task, source, warnings) = resolve(&ProfileSearch {
            file: Some(corrupt.clone()),
            env: Some(foreign.clone().into()),
            config_file: None,
        });
        assert_eq!(source, ProfileSource::Builtin);
        let builtin = Profile::builtin().weights(&crate::curves::spec("bn254-g1").unwrap());
        assert_eq!(task, builtin.task);
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].contains("corrupt.json") && warnings[0].contains("not valid"));
        assert!(warnings[1].contains("foreign.json") && warnings[1].contains("0.0.0-other"));

        let (task, source, _) = resolve(&ProfileSearch {
            file: Some(corrupt),
            env: Some(env.clone().into()),
            config_file: None,
        });
        assert_eq!((task, source), (5.0, ProfileSource::Env(env)));
    }

    #[test]
    fn a_missing_explicit_file_warns_but_a_missing_config_file_is_silent() {
        let dir = Scratch::new("missing");
        let missing = dir.file("does-not-exist.json");
        let (_, source, warnings) = resolve(&ProfileSearch {
            file: None,
            env: None,
            config_file: Some(missing.clone()),
        });
        assert_eq!(source, ProfileSource::Builtin);
        assert!(warnings.is_empty());
        let (_, source, warnings) = resolve(&ProfileSearch {
            file: Some(missing),
            env: None,
            config_file: None,
        });
        assert_eq!(source, ProfileSource::Builtin);
        assert_eq!(warnings.len(), 1);
    }
}
