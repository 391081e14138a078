package jobs

// HeldBytes returns the bytes that the in-process store of m counts
// against Config.MaxMemory: rows, reserved results and results.
func HeldBytes(m *Manager) int64 {
	s := m.st.(*memStore)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}
