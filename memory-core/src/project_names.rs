//! Projects by name: a project's scope holds its id (stable, carrying a hash), while people read
//! and type its readable name. [`ProjectNames`] turns one into the other for everything shown
//! (frontmatter, tables, JSON) and read back (an edited note, an imported file).

use std::collections::BTreeMap;

use crate::{Note, NotePath, Scope, project_folder};

/// The readable name of each known project, by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectNames {
    by_id: BTreeMap<String, String>,
}

impl ProjectNames {
    /// Names from a map of project id → readable name.
    pub fn new(by_id: BTreeMap<String, String>) -> Self {
        Self { by_id }
    }

    /// The readable name of project `id`; the id itself when no name is known.
    pub fn name<'a>(&'a self, id: &'a str) -> &'a str {
        self.by_id.get(id).map_or(id, String::as_str)
    }

    /// The id of the project `text` names (its name, case aside, or its id); `None` when no
    /// known project answers to it.
    pub fn id_of(&self, text: &str) -> Option<&str> {
        if self.by_id.contains_key(text) {
            return self.by_id.get_key_value(text).map(|(id, _)| id.as_str());
        }
        self.by_id.iter().find(|(_, name)| name.eq_ignore_ascii_case(text)).map(|(id, _)| id.as_str())
    }

    /// A scope as people read it: a project's by its name (`project:webshop`).
    pub fn shown(&self, scope: &Scope) -> Scope {
        match scope {
            Scope::Project(id) => Scope::Project(self.name(id).to_owned()),
            other => other.clone(),
        }
    }

    /// [`ProjectNames::shown`] as text.
    pub fn label(&self, scope: &Scope) -> String {
        self.shown(scope).to_string()
    }

    /// A scope people wrote, a project's by name or id, as stored (by id). A project nobody knows
    /// is kept as written.
    pub fn resolve(&self, scope: Scope) -> Scope {
        match scope {
            Scope::Project(text) => match self.id_of(&text) {
                Some(id) => Scope::Project(id.to_owned()),
                None => Scope::Project(text),
            },
            other => other,
        }
    }

    /// `note` as people read it: its scope by name.
    pub fn note(&self, note: &Note) -> Note {
        let mut shown = note.clone();
        shown.meta.scope = self.shown(&note.meta.scope);
        shown
    }

    /// `note` as Markdown for people: its frontmatter names its project.
    pub fn markdown(&self, note: &Note) -> String {
        self.note(note).to_markdown()
    }

    /// The folder of the project `id`'s notes: `project/<slug of its name>`.
    pub fn folder(&self, id: &str) -> String {
        project_folder(self.name(id))
    }

    /// Where a note of `scope` filed at `path` belongs: a project's notes sit in its folder
    /// ([`ProjectNames::folder`]), so `deploy.md` and `project/<old name>/deploy.md` are both
    /// `project/<name>/deploy.md`; other scopes' paths are kept.
    pub fn place(&self, scope: &Scope, path: &NotePath) -> NotePath {
        let Scope::Project(id) = scope else { return path.clone() };
        let folder = self.folder(id);
        let inner = path.below_project_folder().unwrap_or(path.as_str());
        NotePath::new(format!("{folder}/{inner}")).unwrap_or_else(|_| path.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> ProjectNames {
        ProjectNames::new([("webshop-622b3c0f".to_owned(), "webshop".to_owned())].into())
    }

    #[test]
    fn scopes_are_shown_by_name_and_read_back_by_name_or_id() {
        let names = names();
        let stored = Scope::Project("webshop-622b3c0f".to_owned());
        assert_eq!(names.label(&stored), "project:webshop");
        assert_eq!(names.resolve(Scope::Project("webshop".into())), stored);
        assert_eq!(names.resolve(Scope::Project("WebShop".into())), stored);
        assert_eq!(names.resolve(stored.clone()), stored, "the id keeps working");
        assert_eq!(names.resolve(Scope::Project("other".into())), Scope::Project("other".into()));
        assert_eq!(names.label(&Scope::Project("legacy-1".into())), "project:legacy-1");
        assert_eq!(names.resolve(Scope::User), Scope::User);
    }

    #[test]
    fn project_notes_are_placed_in_the_folder_of_the_name() {
        let names = names();
        let scope = Scope::Project("webshop-622b3c0f".to_owned());
        let place = |p: &str| names.place(&scope, &NotePath::new(p).unwrap()).as_str().to_owned();
        assert_eq!(place("procedures/deploy.md"), "project/webshop/procedures/deploy.md");
        assert_eq!(place("project/webshop-622b3c0f/conventions.md"), "project/webshop/conventions.md");
        assert_eq!(place("project/webshop/conventions.md"), "project/webshop/conventions.md");
        let user = NotePath::new("profile/role.md").unwrap();
        assert_eq!(names.place(&Scope::User, &user), user);
    }
}
