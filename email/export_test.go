package email

// tracked is the number of addresses the pacer holds state for.
func (p *pacer) tracked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.hosts)
}
