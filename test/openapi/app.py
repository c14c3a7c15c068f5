"""A small FastAPI app for the mock's `--openapi` tests: the parts of the console's API the mock does not
implement (agents, evaluations, personas by id), written as a team would write them with FastAPI 0.92 and
pydantic 1.10 (Debian 12); it runs unchanged under FastAPI 0.115 + pydantic 2 (Debian trixie). Its /openapi.json
is `openapi-3.0.json` under the first and `openapi-3.1.json` under the second (generate.py prints it).

It is also run under uvicorn by the tests, to compare the mock's 422 bodies and auth refusals with FastAPI's.
It keeps agents in memory; nothing else is stored.
"""

import enum
import uuid
from datetime import datetime, timezone
from typing import Dict, List, Optional

from fastapi import Depends, FastAPI, HTTPException, Query, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

app = FastAPI(title="Agent Management Console API (rest)", version="1.0.0")
bearer = HTTPBearer()


class AgentKind(str, enum.Enum):
    assistant = "assistant"
    evaluator = "evaluator"
    red_team = "red_team"


class AgentConfig(BaseModel):
    model: str = Field(..., min_length=1, max_length=64)
    temperature: float = Field(0.7, ge=0, le=2)
    max_tokens: int = Field(1024, ge=1, le=8192)


class AgentCreate(BaseModel):
    name: str = Field(..., min_length=1, max_length=100)
    description: Optional[str] = None
    kind: AgentKind
    config: AgentConfig
    tags: List[str] = Field(..., min_items=1, max_items=10)


class AgentUpdate(BaseModel):
    name: Optional[str] = Field(None, min_length=1, max_length=100)
    description: Optional[str] = None
    kind: Optional[AgentKind] = None
    config: Optional[AgentConfig] = None
    tags: Optional[List[str]] = Field(None, min_items=1, max_items=10)


class Agent(AgentCreate):
    id: uuid.UUID
    team_id: uuid.UUID
    created_at: datetime
    updated_at: datetime


class AgentPage(BaseModel):
    results: List[Agent]
    total: int


class EvaluationStatus(str, enum.Enum):
    queued = "queued"
    running = "running"
    done = "done"


class EvaluationCreate(BaseModel):
    agent_id: uuid.UUID
    dataset: str = Field(..., min_length=1)
    sample_size: int = Field(100, ge=1, le=10000)


class Evaluation(BaseModel):
    id: uuid.UUID
    agent_id: uuid.UUID
    status: EvaluationStatus
    created_at: datetime


class ScoreEntry(BaseModel):
    metric: str
    score: float = Field(..., ge=0, le=1)


class EvaluationReport(BaseModel):
    evaluation_id: uuid.UUID
    passed: bool
    scores: List[ScoreEntry] = Field(..., min_items=1)
    summary: Optional[str] = None


class Persona(BaseModel):
    """The persona record of the console's persona list (its timestamps are Unix seconds)."""

    id: uuid.UUID
    team_id: uuid.UUID
    name: str
    role: str
    intent: str
    language: str
    tags: Optional[List[str]] = None
    created_at: int
    updated_at: int


agents: Dict[uuid.UUID, Agent] = {}


def now() -> datetime:
    return datetime.now(timezone.utc)


def agent_or_404(agent_id: uuid.UUID) -> Agent:
    if agent_id not in agents:
        raise HTTPException(status_code=404, detail="Agent not found")
    return agents[agent_id]


@app.post("/v1/agents/", response_model=Agent, status_code=201, tags=["agents"])
def create_agent(body: AgentCreate, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    agent = Agent(**body.dict(), id=uuid.uuid4(), team_id=uuid.uuid4(), created_at=now(), updated_at=now())
    agents[agent.id] = agent
    return agent


@app.get("/v1/agents/", response_model=AgentPage, tags=["agents"])
def list_agents(
    limit: int = Query(20, ge=1, le=100),
    offset: int = Query(0, ge=0),
    credentials: HTTPAuthorizationCredentials = Depends(bearer),
):
    stored = list(agents.values())
    return AgentPage(results=stored[offset : offset + limit], total=len(stored))


@app.get("/v1/agents/{agent_id}", response_model=Agent, tags=["agents"])
def get_agent(agent_id: uuid.UUID, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    return agent_or_404(agent_id)


@app.patch("/v1/agents/{agent_id}", response_model=Agent, tags=["agents"])
def update_agent(agent_id: uuid.UUID, body: AgentUpdate, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    agent = agent_or_404(agent_id)
    changed = agent.copy(update={**body.dict(exclude_unset=True), "updated_at": now()})
    agents[agent_id] = changed
    return changed


@app.put("/v1/agents/{agent_id}", response_model=Agent, tags=["agents"])
def replace_agent(agent_id: uuid.UUID, body: AgentCreate, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    agent = agent_or_404(agent_id)
    replaced = Agent(**body.dict(), id=agent.id, team_id=agent.team_id, created_at=agent.created_at, updated_at=now())
    agents[agent_id] = replaced
    return replaced


@app.delete("/v1/agents/{agent_id}", status_code=204, response_class=Response, tags=["agents"])
def delete_agent(agent_id: uuid.UUID, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    agent_or_404(agent_id)
    del agents[agent_id]
    return Response(status_code=204)


@app.post("/v1/evaluations/", response_model=Evaluation, status_code=202, tags=["evaluations"])
def start_evaluation(body: EvaluationCreate, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    return Evaluation(id=uuid.uuid4(), agent_id=body.agent_id, status=EvaluationStatus.queued, created_at=now())


@app.get("/v1/evaluations/{evaluation_id}/report", response_model=EvaluationReport, tags=["evaluations"])
def evaluation_report(evaluation_id: uuid.UUID):
    """Open: reports are shared by link, without a token."""
    return EvaluationReport(evaluation_id=evaluation_id, passed=True, scores=[ScoreEntry(metric="accuracy", score=1)])


@app.get("/v1/personas/{persona_id}", response_model=Persona, tags=["personas"])
def get_persona(persona_id: uuid.UUID, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    raise HTTPException(status_code=404, detail="Persona not found")
