// Placeholder: the admin panel (issue 5) replaces this file.
export default function AdminApp() {
  return <p>Admin</p>;
}
