//! GitHub Copilot CLI: hooks under `hooks` in `~/.copilot/settings.json` (user scope) or in the
//! project's own `.github/hooks/agent-memory.json` (`{"version":1,"hooks":{event:[…]}}`), flat
//! handlers with the command under `bash` and a `timeoutSec`, and what the user must know.

use super::merge::{HandlerSpec, HarnessSpec, Shape};

/// Flat handlers; a new project file starts with `"version": 1`, a new settings file empty.
pub(crate) static SPEC: HarnessSpec = HarnessSpec {
    name: "copilot",
    shape: Shape::Flat,
    adapter: &crate::cmd::COPILOT,
    fresh_members: &[("version", 1)],
    user_file_is_settings: true,
    handler: HandlerSpec { command_key: "bash", timeout_key: "timeoutSec", ..HandlerSpec::COMMAND },
};

/// The trust step, user scope.
pub(crate) const TRUST: &str = "Copilot CLI: the hooks in ~/.copilot/settings.json ($COPILOT_HOME) run in \
every folder, trusted or not, from the next session on.";

/// The trust step, project scope.
pub(crate) const PROJECT_TRUST: &str = "Copilot CLI: the hooks in .github/hooks/ run only in a folder you \
trust (Copilot asks on first start; `copilot -p` needs `--trust-folder` or `COPILOT_ALLOW_ALL=true`) and are \
skipped silently otherwise.";
