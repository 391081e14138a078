module example.com/apifixture

go 1.26.0
